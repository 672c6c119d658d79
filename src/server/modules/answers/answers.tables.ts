import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { user } from "#server/db/auth.tables";

/**
 * Every answer a learner gives to a graded exercise item (src/server/modules/answers): what was given,
 * whether the server judged it right, and when. `client_id` is made by the client for each answer, so
 * a resend of the same answer is stored once.
 */
export const answer = pgTable(
  "answer",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    /** The practice task whose set holds the item. */
    taskId: text("task_id").notNull(),
    itemId: text("item_id").notNull(),
    given: jsonb("given").notNull(),
    correct: boolean("correct").notNull(),
    answeredAt: timestamp("answered_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("answer_user_id_client_id_idx").on(table.userId, table.clientId),
    index("answer_user_id_task_idx").on(table.userId, table.chapterId, table.dayId, table.taskId),
  ],
);
