ALTER TABLE "task_progress" ADD COLUMN "learner_at" timestamp with time zone;--> statement-breakpoint
-- A status the learner wrote last is theirs from its time; one staff wrote last keeps no learner time
-- (the learner's own earlier time was not kept before this column).
UPDATE "task_progress" SET "learner_at" = "updated_at" WHERE NOT "by_staff";
