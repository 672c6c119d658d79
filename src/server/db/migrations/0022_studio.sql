CREATE TABLE "studio_clip" (
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"line_id" text NOT NULL,
	"take_id" uuid NOT NULL,
	"speaker" text,
	"voice_id" text NOT NULL,
	"published_by" text,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "studio_clip_chapter_id_day_id_line_id_pk" PRIMARY KEY("chapter_id","day_id","line_id"),
	CONSTRAINT "studio_clip_take_id_unique" UNIQUE("take_id")
);
--> statement-breakpoint
CREATE TABLE "studio_dialogue" (
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"section_id" text NOT NULL,
	"id" uuid NOT NULL,
	"key" text NOT NULL,
	"bytes" integer NOT NULL,
	"built_from" text NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "studio_dialogue_chapter_id_day_id_section_id_pk" PRIMARY KEY("chapter_id","day_id","section_id"),
	CONSTRAINT "studio_dialogue_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE TABLE "studio_take" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"chapter_id" text NOT NULL,
	"day_id" text NOT NULL,
	"line_id" text NOT NULL,
	"voice_id" text NOT NULL,
	"state" text DEFAULT 'processing' NOT NULL,
	"master_key" text NOT NULL,
	"master_bytes" integer NOT NULL,
	"trim_start_ms" integer,
	"trim_end_ms" integer,
	"checks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"clip_key" text,
	"clip_bytes" integer,
	"duration_ms" integer,
	"integrated_lufs" real,
	"true_peak_dbtp" real,
	"processing_ms" integer,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "studio_take_state_check" CHECK ("studio_take"."state" in ('processing', 'needs-fix', 'in-review', 'published', 'rejected', 'replaced', 'unpublished'))
);
--> statement-breakpoint
ALTER TABLE "studio_clip" ADD CONSTRAINT "studio_clip_take_id_studio_take_id_fk" FOREIGN KEY ("take_id") REFERENCES "public"."studio_take"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_clip" ADD CONSTRAINT "studio_clip_voice_id_user_id_fk" FOREIGN KEY ("voice_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_clip" ADD CONSTRAINT "studio_clip_published_by_user_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_take" ADD CONSTRAINT "studio_take_voice_id_user_id_fk" FOREIGN KEY ("voice_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_take" ADD CONSTRAINT "studio_take_reviewed_by_user_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "studio_clip_voice_idx" ON "studio_clip" USING btree ("voice_id");--> statement-breakpoint
CREATE INDEX "studio_take_line_idx" ON "studio_take" USING btree ("chapter_id","day_id","line_id","created_at");--> statement-breakpoint
CREATE INDEX "studio_take_voice_idx" ON "studio_take" USING btree ("voice_id");--> statement-breakpoint
CREATE INDEX "studio_take_review_idx" ON "studio_take" USING btree ("created_at") WHERE "studio_take"."state" = 'in-review';