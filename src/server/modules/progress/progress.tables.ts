import { sql } from "drizzle-orm";
import { boolean, check, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { TASK_STATUSES } from "#course/progress-status";
import { user } from "#server/db/auth.tables";
import { updatedAt } from "#server/db/columns";

/** One row per task a learner has touched; no row means not-started. section_id is the day. */
export const taskProgress = pgTable(
  "task_progress",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    chapterId: text("chapter_id").notNull(),
    sectionId: text("section_id").notNull(),
    taskId: text("task_id").notNull(),
    status: text("status", { enum: TASK_STATUSES }).notNull(),
    /** Whether staff wrote this status last (a tutor's correction, a session's rating), not the learner. */
    byStaff: boolean("by_staff").notNull().default(false),
    updatedAt: updatedAt(),
    /**
     * When the learner last changed this status themselves, kept when staff change it after them:
     * the learner's activity (lastUpdatedAt). Null for a row only staff have written.
     */
    learnerAt: timestamp("learner_at", { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.chapterId, table.sectionId, table.taskId] }),
    check(
      "task_progress_status_check",
      sql`${table.status} in (${sql.raw(TASK_STATUSES.map((status) => `'${status}'`).join(", "))})`,
    ),
  ],
);

/**
 * The days a learner has completed, each recorded once, when its last task was completed. A day
 * completed once keeps the days after it open even when the course later adds a task to it
 * (docs/decisions/030).
 */
export const dayCompletion = pgTable(
  "day_completion",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.chapterId, table.dayId] })],
);
