import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import {
  CALL_SIGNAL_KINDS,
  CHAT_MAX_LENGTH,
  SESSION_RATING_COMMENT_MAX,
  SESSION_RATING_MAX,
  SESSION_RATING_MIN,
} from "#course/calls";
import { FEEDBACK_MAX_LENGTH } from "#course/feedback";
import { TUTOR_RATING_MAX, TUTOR_RATING_MIN } from "#course/speaking";
import { user } from "#server/db/auth.tables";
import { createdAt, quoted } from "#server/db/columns";
import { booking } from "#server/modules/bookings/bookings.tables";
import { tutorFeedback } from "#server/modules/feedback/feedback.tables";

/**
 * What one side of a session's room sends the other (CALL_SIGNAL_KINDS), kept briefly: a
 * notification on `call_room` names the row, and each instance with a side of that room reads it
 * (PostgreSQL's notifications carry at most 8,000 bytes; an offer may be more). Pruned after an hour.
 */
export const callSignal = pgTable(
  "call_signal",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    bookingId: uuid("booking_id")
      .notNull()
      .references(() => booking.id, { onDelete: "cascade" }),
    senderId: text("sender_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** The sender's connection, so it does not hear itself and a second tab can replace the first. */
    connectionId: uuid("connection_id").notNull(),
    kind: text("kind", { enum: CALL_SIGNAL_KINDS }).notNull(),
    body: jsonb("body").notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index("call_signal_created_idx").on(table.createdAt),
    check("call_signal_kind_check", sql`${table.kind} in (${sql.raw(quoted(CALL_SIGNAL_KINDS))})`),
  ],
);

/** The chat of a session's room, kept with the booking. */
export const callMessage = pgTable(
  "call_message",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    bookingId: uuid("booking_id")
      .notNull()
      .references(() => booking.id, { onDelete: "cascade" }),
    senderId: text("sender_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    text: text("text").notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index("call_message_booking_idx").on(table.bookingId, table.createdAt),
    check("call_message_text_check", sql`char_length(${table.text}) between 1 and ${sql.raw(String(CHAT_MAX_LENGTH))}`),
  ],
);

/**
 * The tutor's rating (TUTOR_RATING_MIN to TUTOR_RATING_MAX) of a role-play phrase the learner said
 * in a session's room: one per phrase, changed as often as the tutor likes until the session ends.
 */
export const callRating = pgTable(
  "call_rating",
  {
    bookingId: uuid("booking_id")
      .notNull()
      .references(() => booking.id, { onDelete: "cascade" }),
    /** The role-play's task. */
    taskId: text("task_id").notNull(),
    /** The phrase of the role-play. */
    lineId: text("line_id").notNull(),
    rating: integer("rating").notNull(),
    ratedAt: timestamp("rated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.bookingId, table.taskId, table.lineId] }),
    check(
      "call_rating_rating_check",
      sql`${table.rating} between ${sql.raw(String(TUTOR_RATING_MIN))} and ${sql.raw(String(TUTOR_RATING_MAX))}`,
    ),
  ],
);

/**
 * A session's record beside its room: the tutor's notes as they type them, and its end: when, by
 * whom, and the feedback the notes became.
 */
export const callRecord = pgTable(
  "call_record",
  {
    bookingId: uuid("booking_id")
      .primaryKey()
      .references(() => booking.id, { onDelete: "cascade" }),
    notes: text("notes").notNull().default(""),
    notesSavedAt: timestamp("notes_saved_at", { withTimezone: true }),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    endedBy: text("ended_by").references(() => user.id, { onDelete: "set null" }),
    feedbackId: uuid("feedback_id").references(() => tutorFeedback.id, { onDelete: "set null" }),
  },
  (table) => [
    check("call_record_notes_check", sql`char_length(${table.notes}) <= ${sql.raw(String(FEEDBACK_MAX_LENGTH))}`),
  ],
);

/**
 * The learner's rating of a session held (decision 083): 1 to 5 stars and an optional comment, once
 * per session, changed for SESSION_RATING_EDIT_HOURS after first given. It goes with the learner's
 * account (what the leaving user wrote goes) and with the booking.
 */
export const sessionRating = pgTable(
  "session_rating",
  {
    bookingId: uuid("booking_id")
      .primaryKey()
      .references(() => booking.id, { onDelete: "cascade" }),
    learnerId: text("learner_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    stars: integer("stars").notNull(),
    comment: text("comment"),
    givenAt: timestamp("given_at", { withTimezone: true }).notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    index("session_rating_learner_idx").on(table.learnerId),
    check(
      "session_rating_stars_check",
      sql`${table.stars} between ${sql.raw(String(SESSION_RATING_MIN))} and ${sql.raw(String(SESSION_RATING_MAX))}`,
    ),
    check(
      "session_rating_comment_check",
      sql`char_length(${table.comment}) <= ${sql.raw(String(SESSION_RATING_COMMENT_MAX))}`,
    ),
  ],
);
