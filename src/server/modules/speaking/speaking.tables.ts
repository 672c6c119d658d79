import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { SELF_RATINGS, TAKE_TYPES, TUTOR_RATING_MAX, TUTOR_RATING_MIN } from "#course/speaking";
import { user } from "#server/db/auth.tables";
import { createdAt } from "#server/db/columns";

/**
 * A learner's set of takes sent to a tutor: a role-play done alone (`taskId`, the role-play's task),
 * or lines the learner chose to send (no task). Waits in the tutors' queue until one reviews it.
 */
export const speakingSubmission = pgTable(
  "speaking_submission",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    taskId: text("task_id"),
    submittedAt: timestamp("submitted_at", { withTimezone: true }).notNull().defaultNow(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reviewedBy: text("reviewed_by").references(() => user.id, { onDelete: "set null" }),
  },
  (table) => [
    index("speaking_submission_waiting_idx").on(table.submittedAt).where(sql`${table.reviewedAt} is null`),
    index("speaking_submission_user_idx").on(table.userId, table.chapterId, table.dayId),
  ],
);

/**
 * A learner's take of a line (src/course/speaking.ts), its bytes behind the storage interface under
 * `fileKey`. Each line has at most one take not sent to a tutor: recording again replaces it. A
 * take sent in a submission stays as sent, with the tutor's rating and comment once reviewed.
 */
export const recording = pgTable(
  "recording",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    lineId: text("line_id").notNull(),
    fileKey: text("file_key").notNull().unique(),
    contentType: text("content_type", { enum: TAKE_TYPES }).notNull(),
    byteSize: integer("byte_size").notNull(),
    durationMs: integer("duration_ms").notNull(),
    selfRating: text("self_rating", { enum: SELF_RATINGS }),
    submissionId: uuid("submission_id").references(() => speakingSubmission.id, { onDelete: "cascade" }),
    tutorRating: integer("tutor_rating"),
    tutorComment: text("tutor_comment"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("recording_unsent_line_idx")
      .on(table.userId, table.chapterId, table.dayId, table.lineId)
      .where(sql`${table.submissionId} is null`),
    index("recording_user_created_idx").on(table.userId, table.createdAt),
    index("recording_submission_idx").on(table.submissionId),
    check(
      "recording_tutor_rating_check",
      sql`${table.tutorRating} between ${sql.raw(String(TUTOR_RATING_MIN))} and ${sql.raw(String(TUTOR_RATING_MAX))}`,
    ),
    check(
      "recording_self_rating_check",
      sql`${table.selfRating} in (${sql.raw(SELF_RATINGS.map((rating) => `'${rating}'`).join(", "))})`,
    ),
  ],
);

/**
 * What a learner did with a line without a take: listened to its model, said it aloud (no
 * microphone, or a place where they cannot speak). With a take, these complete a day's shadowing.
 */
export const linePractice = pgTable(
  "line_practice",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    lineId: text("line_id").notNull(),
    listenedAt: timestamp("listened_at", { withTimezone: true }),
    saidAloudAt: timestamp("said_aloud_at", { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.chapterId, table.dayId, table.lineId] })],
);

/** A day a learner turned "I can't speak now" on for: its lines offer "Said aloud" in place of the recorder. */
export const quietDay = pgTable(
  "quiet_day",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    since: timestamp("since", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.chapterId, table.dayId] })],
);

/**
 * Something the app tells a user in the header's notices: a tutor reviewed their takes (the
 * submission's day), or rated their live session (`chapter_id` and `day_id`, the session's day).
 */
export const notice = pgTable(
  "notice",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["takes-reviewed", "session-rated"] }).notNull(),
    submissionId: uuid("submission_id").references(() => speakingSubmission.id, { onDelete: "cascade" }),
    chapterId: text("chapter_id"),
    dayId: text("day_id"),
    createdAt: createdAt(),
    readAt: timestamp("read_at", { withTimezone: true }),
  },
  (table) => [index("notice_user_created_idx").on(table.userId, table.createdAt)],
);
