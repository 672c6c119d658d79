CREATE TABLE "answer" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"client_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"task_id" text NOT NULL,
	"item_id" text NOT NULL,
	"given" jsonb NOT NULL,
	"correct" boolean NOT NULL,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "day_completion" (
	"user_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"completed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "day_completion_user_id_chapter_id_day_id_pk" PRIMARY KEY("user_id","chapter_id","day_id")
);
--> statement-breakpoint
ALTER TABLE "answer" ADD CONSTRAINT "answer_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "day_completion" ADD CONSTRAINT "day_completion_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "answer_user_id_client_id_idx" ON "answer" USING btree ("user_id","client_id");--> statement-breakpoint
CREATE INDEX "answer_user_id_task_idx" ON "answer" USING btree ("user_id","chapter_id","day_id","task_id");