CREATE TABLE "voice" (
	"user_id" text PRIMARY KEY NOT NULL,
	"credited_name" text NOT NULL,
	"accent" text NOT NULL,
	"granted_by" text,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voice_accent_check" CHECK ("voice"."accent" in ('kuala-lumpur', 'johor', 'kelantan', 'terengganu', 'utara', 'perak', 'negeri-sembilan', 'melaka', 'pahang', 'sarawak', 'sabah'))
);
--> statement-breakpoint
CREATE TABLE "voice_consent" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"version" text NOT NULL,
	"consented_at" timestamp with time zone DEFAULT now() NOT NULL,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "voice_consent_withdrawn_after_check" CHECK ("voice_consent"."withdrawn_at" >= "voice_consent"."consented_at")
);
--> statement-breakpoint
ALTER TABLE "voice" ADD CONSTRAINT "voice_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice" ADD CONSTRAINT "voice_granted_by_user_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_consent" ADD CONSTRAINT "voice_consent_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "voice_consent_standing_idx" ON "voice_consent" USING btree ("user_id") WHERE "voice_consent"."withdrawn_at" is null;--> statement-breakpoint
CREATE INDEX "voice_consent_user_idx" ON "voice_consent" USING btree ("user_id","consented_at");