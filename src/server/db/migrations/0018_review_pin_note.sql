CREATE TABLE "review_pin_note" (
	"user_id" text NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"phrase_id" text NOT NULL,
	"rating" integer NOT NULL,
	"comment" text,
	"take_id" uuid,
	"pinned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "review_pin_note_user_id_chapter_id_day_id_phrase_id_pk" PRIMARY KEY("user_id","chapter_id","day_id","phrase_id"),
	CONSTRAINT "review_pin_note_rating_check" CHECK ("review_pin_note"."rating" between 1 and 5)
);
--> statement-breakpoint
ALTER TABLE "review_pin_note" ADD CONSTRAINT "review_pin_note_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_pin_note" ADD CONSTRAINT "review_pin_note_take_id_recording_id_fk" FOREIGN KEY ("take_id") REFERENCES "public"."recording"("id") ON DELETE set null ON UPDATE no action;