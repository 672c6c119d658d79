CREATE TABLE "daily_goal_change" (
	"user_id" text NOT NULL,
	"local_date" text NOT NULL,
	"unit" text NOT NULL,
	"amount" integer NOT NULL,
	"previous_unit" text NOT NULL,
	"previous_amount" integer NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "daily_goal_change_user_id_local_date_pk" PRIMARY KEY("user_id","local_date")
);
--> statement-breakpoint
ALTER TABLE "daily_goal_change" ADD CONSTRAINT "daily_goal_change_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;