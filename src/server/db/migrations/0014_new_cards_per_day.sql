ALTER TABLE "review_card" ADD COLUMN "first_reviewed_on" text;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "new_cards_per_day" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_new_cards_per_day_check" CHECK ("user"."new_cards_per_day" between 0 and 100);--> statement-breakpoint
-- Cards already started: the date their first review counted on, so today's new cards count them.
UPDATE "review_card" card SET "first_reviewed_on" = (
  SELECT log.local_date FROM "review_log" log
  WHERE log.user_id = card.user_id AND log.chapter_id = card.chapter_id AND log.day_id = card.day_id
    AND log.phrase_id = card.phrase_id AND log.skill = card.skill
  ORDER BY log.reviewed_at LIMIT 1
) WHERE card.reps > 0;
