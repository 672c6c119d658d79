import { integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { DAILY_GOAL_UNITS } from "#course/review-rules";
import { user } from "#server/db/auth.tables";

/**
 * The days a learner changed their daily review goal, one row per UTC date of the change: the goal
 * they had before the date's first change and after its last, and the last change's instant. A past
 * day of reviews is judged by the goal in force when its last review counted, so changing the goal
 * does not rewrite the streak.
 */
export const dailyGoalChange = pgTable(
  "daily_goal_change",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    localDate: text("local_date").notNull(),
    unit: text("unit", { enum: DAILY_GOAL_UNITS }).notNull(),
    amount: integer("amount").notNull(),
    previousUnit: text("previous_unit", { enum: DAILY_GOAL_UNITS }).notNull(),
    previousAmount: integer("previous_amount").notNull(),
    changedAt: timestamp("changed_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.localDate] })],
);
