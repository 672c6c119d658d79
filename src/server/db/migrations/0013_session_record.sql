CREATE TABLE "call_rating" (
	"booking_id" uuid NOT NULL,
	"task_id" text NOT NULL,
	"line_id" text NOT NULL,
	"rating" integer NOT NULL,
	"rated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "call_rating_booking_id_task_id_line_id_pk" PRIMARY KEY("booking_id","task_id","line_id"),
	CONSTRAINT "call_rating_rating_check" CHECK ("call_rating"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "call_record" (
	"booking_id" uuid PRIMARY KEY NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"notes_saved_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"ended_by" text,
	"feedback_id" uuid,
	CONSTRAINT "call_record_notes_check" CHECK (char_length("call_record"."notes") <= 4000)
);
--> statement-breakpoint
ALTER TABLE "call_signal" DROP CONSTRAINT "call_signal_kind_check";--> statement-breakpoint
ALTER TABLE "notice" ADD COLUMN "chapter_id" text;--> statement-breakpoint
ALTER TABLE "notice" ADD COLUMN "day_id" text;--> statement-breakpoint
ALTER TABLE "task_progress" ADD COLUMN "by_staff" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tutor_feedback" ADD COLUMN "corrected_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tutor_feedback" ADD COLUMN "booking_id" uuid;--> statement-breakpoint
ALTER TABLE "call_rating" ADD CONSTRAINT "call_rating_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_record" ADD CONSTRAINT "call_record_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_record" ADD CONSTRAINT "call_record_ended_by_user_id_fk" FOREIGN KEY ("ended_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_record" ADD CONSTRAINT "call_record_feedback_id_tutor_feedback_id_fk" FOREIGN KEY ("feedback_id") REFERENCES "public"."tutor_feedback"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutor_feedback" ADD CONSTRAINT "tutor_feedback_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tutor_feedback_tutor_idx" ON "tutor_feedback" USING btree ("tutor_id","student_id");--> statement-breakpoint
ALTER TABLE "call_signal" ADD CONSTRAINT "call_signal_kind_check" CHECK ("call_signal"."kind" in ('hello', 'here', 'bye', 'description', 'candidate', 'chat', 'ended'));