CREATE TABLE "session_rating" (
	"booking_id" uuid PRIMARY KEY NOT NULL,
	"learner_id" text NOT NULL,
	"stars" integer NOT NULL,
	"comment" text,
	"given_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "session_rating_stars_check" CHECK ("session_rating"."stars" between 1 and 5),
	CONSTRAINT "session_rating_comment_check" CHECK (char_length("session_rating"."comment") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "session_rating" ADD CONSTRAINT "session_rating_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_rating" ADD CONSTRAINT "session_rating_learner_id_user_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_rating_learner_idx" ON "session_rating" USING btree ("learner_id");