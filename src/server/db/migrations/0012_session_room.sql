CREATE TABLE "call_message" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"sender_id" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "call_message_text_check" CHECK (char_length("call_message"."text") between 1 and 1000)
);
--> statement-breakpoint
CREATE TABLE "call_signal" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "call_signal_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"booking_id" uuid NOT NULL,
	"sender_id" text NOT NULL,
	"connection_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"body" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "call_signal_kind_check" CHECK ("call_signal"."kind" in ('hello', 'here', 'bye', 'description', 'candidate', 'chat'))
);
--> statement-breakpoint
ALTER TABLE "call_message" ADD CONSTRAINT "call_message_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_message" ADD CONSTRAINT "call_message_sender_id_user_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_signal" ADD CONSTRAINT "call_signal_booking_id_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."booking"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "call_signal" ADD CONSTRAINT "call_signal_sender_id_user_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "call_message_booking_idx" ON "call_message" USING btree ("booking_id","created_at");--> statement-breakpoint
CREATE INDEX "call_signal_created_idx" ON "call_signal" USING btree ("created_at");