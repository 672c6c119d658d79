ALTER TABLE "mail_outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
ALTER TABLE "user" ADD COLUMN "unsubscribe_key" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "user" ADD CONSTRAINT "user_unsubscribe_key_unique" UNIQUE("unsubscribe_key");