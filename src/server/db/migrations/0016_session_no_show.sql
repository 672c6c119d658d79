ALTER TABLE "booking" ADD COLUMN "no_show_by" text;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "no_show_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking" ADD COLUMN "met_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_no_show_by_user_id_fk" FOREIGN KEY ("no_show_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- No-shows marked before this column: who and when are the booking's "no-show" change.
UPDATE "booking" SET "no_show_by" = "change"."actor_id", "no_show_at" = "change"."at"
FROM "booking_change" AS "change"
WHERE "change"."booking_id" = "booking"."id" AND "change"."kind" = 'no-show' AND "booking"."no_show" IS NOT NULL;
