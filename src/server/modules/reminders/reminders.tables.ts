import { pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "#server/db/auth.tables";

/** The review reminders sent: one row per learner and local date, so several instances send one. */
export const reviewReminder = pgTable(
  "review_reminder",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    localDate: text("local_date").notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.localDate] })],
);
