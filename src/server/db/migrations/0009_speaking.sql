CREATE TABLE "line_practice" (
	"user_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"line_id" text NOT NULL,
	"listened_at" timestamp with time zone,
	"said_aloud_at" timestamp with time zone,
	CONSTRAINT "line_practice_user_id_chapter_id_day_id_line_id_pk" PRIMARY KEY("user_id","chapter_id","day_id","line_id")
);
--> statement-breakpoint
CREATE TABLE "notice" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"submission_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "quiet_day" (
	"user_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quiet_day_user_id_chapter_id_day_id_pk" PRIMARY KEY("user_id","chapter_id","day_id")
);
--> statement-breakpoint
CREATE TABLE "recording" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"line_id" text NOT NULL,
	"file_key" text NOT NULL,
	"content_type" text NOT NULL,
	"byte_size" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"self_rating" text,
	"submission_id" uuid,
	"tutor_rating" integer,
	"tutor_comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recording_file_key_unique" UNIQUE("file_key"),
	CONSTRAINT "recording_tutor_rating_check" CHECK ("recording"."tutor_rating" between 1 and 5),
	CONSTRAINT "recording_self_rating_check" CHECK ("recording"."self_rating" in ('again', 'close', 'good'))
);
--> statement-breakpoint
CREATE TABLE "speaking_submission" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"task_id" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_at" timestamp with time zone,
	"reviewed_by" text
);
--> statement-breakpoint
ALTER TABLE "line_practice" ADD CONSTRAINT "line_practice_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice" ADD CONSTRAINT "notice_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notice" ADD CONSTRAINT "notice_submission_id_speaking_submission_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."speaking_submission"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiet_day" ADD CONSTRAINT "quiet_day_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording" ADD CONSTRAINT "recording_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording" ADD CONSTRAINT "recording_submission_id_speaking_submission_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."speaking_submission"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speaking_submission" ADD CONSTRAINT "speaking_submission_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speaking_submission" ADD CONSTRAINT "speaking_submission_reviewed_by_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notice_user_created_idx" ON "notice" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "recording_unsent_line_idx" ON "recording" USING btree ("user_id","chapter_id","day_id","line_id") WHERE "recording"."submission_id" is null;--> statement-breakpoint
CREATE INDEX "recording_user_created_idx" ON "recording" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "recording_submission_idx" ON "recording" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "speaking_submission_waiting_idx" ON "speaking_submission" USING btree ("submitted_at") WHERE "speaking_submission"."reviewed_at" is null;--> statement-breakpoint
CREATE INDEX "speaking_submission_user_idx" ON "speaking_submission" USING btree ("user_id","chapter_id","day_id");--> statement-breakpoint
-- A take's bytes live in stored_file under its file_key (src/server/storage/storage.ts): whatever
-- removes the take (recording again, pruning, a submission or an account removed) removes them too.
CREATE FUNCTION "recording_remove_file"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM "stored_file" WHERE "key" = OLD."file_key";
	RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "recording_remove_file" AFTER DELETE ON "recording" FOR EACH ROW EXECUTE FUNCTION "recording_remove_file"();
