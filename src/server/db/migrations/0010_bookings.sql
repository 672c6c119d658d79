CREATE TABLE "booking" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invite_uid" uuid NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"tutor_id" text NOT NULL,
	"learner_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"replaces_id" uuid,
	"confirmed_at" timestamp with time zone,
	"no_show" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_ends_after_start_check" CHECK ("booking"."ends_at" > "booking"."starts_at"),
	CONSTRAINT "booking_status_check" CHECK ("booking"."status" in ('confirmed', 'proposed', 'cancelled', 'declined', 'moved')),
	CONSTRAINT "booking_no_show_check" CHECK ("booking"."no_show" in ('learner', 'tutor'))
);
--> statement-breakpoint
CREATE TABLE "booking_change" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "booking_change_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"booking_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"actor_id" text,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "booking_reminder" (
	"booking_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_reminder_booking_id_kind_pk" PRIMARY KEY("booking_id","kind"),
	CONSTRAINT "booking_reminder_kind_check" CHECK ("booking_reminder"."kind" in ('24h', '10m'))
);
--> statement-breakpoint
CREATE TABLE "tutor_hours" (
	"user_id" text PRIMARY KEY NOT NULL,
	"time_zone" text NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"languages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"session_minutes" integer DEFAULT 30 NOT NULL,
	"notice_hours" integer DEFAULT 12 NOT NULL,
	"horizon_days" integer DEFAULT 28 NOT NULL,
	"weekly" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"exceptions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "calendar" jsonb;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_tutor_id_user_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_learner_id_user_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_change" ADD CONSTRAINT "booking_change_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_change" ADD CONSTRAINT "booking_change_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_reminder" ADD CONSTRAINT "booking_reminder_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutor_hours" ADD CONSTRAINT "tutor_hours_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_tutor_starts_idx" ON "booking" USING btree ("tutor_id","starts_at");--> statement-breakpoint
CREATE INDEX "booking_learner_starts_idx" ON "booking" USING btree ("learner_id","starts_at");--> statement-breakpoint
CREATE INDEX "booking_invite_idx" ON "booking" USING btree ("invite_uid");--> statement-breakpoint
CREATE INDEX "booking_change_booking_idx" ON "booking_change" USING btree ("booking_id","at");--> statement-breakpoint
-- No two bookings that hold time overlap for one tutor, or for one learner, whichever instance
-- writes them: a tutor's proposal of a new time (the same invite_uid) may overlap the booking it
-- would move. btree_gist gives GiST the = and <> of text and uuid; it is a trusted extension, so a
-- database owner may create it.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_tutor_time_excl" EXCLUDE USING gist ("tutor_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&, "invite_uid" WITH <>) WHERE ("status" in ('confirmed', 'proposed'));--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_learner_time_excl" EXCLUDE USING gist ("learner_id" WITH =, tstzrange("starts_at", "ends_at") WITH &&, "invite_uid" WITH <>) WHERE ("status" in ('confirmed', 'proposed'));
