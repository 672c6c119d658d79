CREATE TABLE "review_card" (
	"user_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"phrase_id" text NOT NULL,
	"skill" text NOT NULL,
	"met_at" timestamp with time zone NOT NULL,
	"due" timestamp with time zone NOT NULL,
	"state" jsonb NOT NULL,
	"reps" integer DEFAULT 0 NOT NULL,
	"lapses" integer DEFAULT 0 NOT NULL,
	"last_reviewed_at" timestamp with time zone,
	"pinned_at" timestamp with time zone,
	"pinned_by" text,
	CONSTRAINT "review_card_user_id_chapter_id_day_id_phrase_id_skill_pk" PRIMARY KEY("user_id","chapter_id","day_id","phrase_id","skill")
);
--> statement-breakpoint
CREATE TABLE "review_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"client_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"phrase_id" text NOT NULL,
	"skill" text NOT NULL,
	"given" jsonb NOT NULL,
	"grade" text NOT NULL,
	"rating" integer NOT NULL,
	"hinted" boolean DEFAULT false NOT NULL,
	"duration_ms" integer NOT NULL,
	"reviewed_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"local_date" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_log_rating_check" CHECK ("review_log"."rating" between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "review_reminder" (
	"user_id" text NOT NULL,
	"local_date" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_reminder_user_id_local_date_pk" PRIMARY KEY("user_id","local_date")
);
--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "daily_goal_unit" text DEFAULT 'reviews' NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "daily_goal" integer DEFAULT 20 NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "time_zone" text DEFAULT 'Asia/Kuala_Lumpur' NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "reminder_hour" integer DEFAULT 19 NOT NULL;--> statement-breakpoint
ALTER TABLE "review_card" ADD CONSTRAINT "review_card_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_card" ADD CONSTRAINT "review_card_pinned_by_user_id_fk" FOREIGN KEY ("pinned_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_log" ADD CONSTRAINT "review_log_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reminder" ADD CONSTRAINT "review_reminder_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_card_user_id_due_idx" ON "review_card" USING btree ("user_id","due");--> statement-breakpoint
CREATE UNIQUE INDEX "review_log_user_id_client_id_idx" ON "review_log" USING btree ("user_id","client_id");--> statement-breakpoint
CREATE INDEX "review_log_card_idx" ON "review_log" USING btree ("user_id","chapter_id","day_id","phrase_id","skill");--> statement-breakpoint
CREATE INDEX "review_log_user_id_local_date_idx" ON "review_log" USING btree ("user_id","local_date");--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_daily_goal_unit_check" CHECK ("user"."daily_goal_unit" in ('reviews', 'minutes'));--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_daily_goal_check" CHECK ("user"."daily_goal" > 0);--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_reminder_hour_check" CHECK ("user"."reminder_hour" between 0 and 23);