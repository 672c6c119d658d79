CREATE TABLE "review_day" (
	"user_id" text NOT NULL,
	"local_date" text NOT NULL,
	"time_zone" text NOT NULL,
	"reviews" integer NOT NULL,
	"counted_ms" bigint NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "review_day_user_id_local_date_time_zone_pk" PRIMARY KEY("user_id","local_date","time_zone")
);
--> statement-breakpoint
ALTER TABLE "review_day" ADD CONSTRAINT "review_day_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_log_user_id_received_at_idx" ON "review_log" USING btree ("user_id","received_at");--> statement-breakpoint
-- Zones stored before they were canonicalised take their canonical spelling (PostgreSQL's names are
-- the IANA names the runtime uses); a spelling that matches no zone is left as it was.
UPDATE "user" SET "time_zone" = zone.name FROM (SELECT DISTINCT ON (lower(name)) lower(name) AS spelling, name FROM pg_timezone_names ORDER BY lower(name), name) zone
  WHERE lower("user"."time_zone") = zone.spelling AND "user"."time_zone" <> zone.name;--> statement-breakpoint
UPDATE "review_log" SET "time_zone" = zone.name FROM (SELECT DISTINCT ON (lower(name)) lower(name) AS spelling, name FROM pg_timezone_names ORDER BY lower(name), name) zone
  WHERE lower("review_log"."time_zone") = zone.spelling AND "review_log"."time_zone" <> zone.name;--> statement-breakpoint
-- The days of reviews logged so far; each review counts at most two minutes towards a minutes goal.
INSERT INTO "review_day" ("user_id", "local_date", "time_zone", "reviews", "counted_ms", "last_at")
  SELECT "user_id", "local_date", "time_zone", count(*), sum(least("duration_ms", 120000)), max("reviewed_at")
  FROM "review_log" GROUP BY "user_id", "local_date", "time_zone";
