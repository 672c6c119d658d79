ALTER TABLE "booking" DROP CONSTRAINT "booking_tutor_id_user_id_fk";
--> statement-breakpoint
ALTER TABLE "booking" DROP CONSTRAINT "booking_learner_id_user_id_fk";
--> statement-breakpoint
ALTER TABLE "booking" ALTER COLUMN "tutor_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ALTER COLUMN "learner_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_tutor_id_user_id_fk" FOREIGN KEY ("tutor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking" ADD CONSTRAINT "booking_learner_id_user_id_fk" FOREIGN KEY ("learner_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;