import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { GRADES } from "#course/grading";
import type { ReviewGiven } from "#course/review-items";
import { REVIEW_SKILLS } from "#course/review-rules";
import type { ReviewEvent } from "#course/review-schedule";
import { TUTOR_RATING_MAX, TUTOR_RATING_MIN } from "#course/speaking";
import { user } from "#server/db/auth.tables";
import { recording } from "#server/modules/speaking/speaking.tables";

/**
 * A learner's review cards (docs/decisions/039-review-deck.md): one per phrase met and skill. The
 * FSRS state is a cache of the review log, rebuilt from it after every review; `pinned_at` marks a
 * phrase a tutor put into the learner's review, due at once until the learner next reviews it.
 */
export const reviewCard = pgTable(
  "review_card",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    phraseId: text("phrase_id").notNull(),
    skill: text("skill", { enum: REVIEW_SKILLS }).notNull(),
    /** When the learner met the phrase (or a tutor pinned it): the card is due from then. */
    metAt: timestamp("met_at", { withTimezone: true }).notNull(),
    due: timestamp("due", { withTimezone: true }).notNull(),
    /** ts-fsrs's Card, as JSON (dates as ISO strings). */
    state: jsonb("state").notNull(),
    reps: integer("reps").notNull().default(0),
    lapses: integer("lapses").notNull().default(0),
    lastReviewedAt: timestamp("last_reviewed_at", { withTimezone: true }),
    /** The local date (as its review_day counts it) of the card's first review: the new cards started that day. */
    firstReviewedOn: text("first_reviewed_on"),
    pinnedAt: timestamp("pinned_at", { withTimezone: true }),
    pinnedBy: text("pinned_by").references(() => user.id, { onDelete: "set null" }),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.chapterId, table.dayId, table.phraseId, table.skill] }),
    index("review_card_user_id_due_idx").on(table.userId, table.due),
  ],
);

/**
 * What a tutor said of a phrase they pinned into a learner's review after hearing it (a take's or a
 * live session's rating): its rating, comment and the take rated, shown on the phrase's spoken card
 * while the pin lasts. A new pin of the phrase replaces it.
 */
export const reviewPinNote = pgTable(
  "review_pin_note",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    phraseId: text("phrase_id").notNull(),
    rating: integer("rating").notNull(),
    comment: text("comment"),
    /** The take the tutor rated; null for a live session's rating, or once the take is removed. */
    takeId: uuid("take_id").references(() => recording.id, { onDelete: "set null" }),
    pinnedAt: timestamp("pinned_at", { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.chapterId, table.dayId, table.phraseId] }),
    check(
      "review_pin_note_rating_check",
      sql`${table.rating} between ${sql.raw(String(TUTOR_RATING_MIN))} and ${sql.raw(String(TUTOR_RATING_MAX))}`,
    ),
  ],
);

/**
 * Every review a learner answers, append-only. `client_id` is made by the client for the review, so
 * a resend is stored once; `reviewed_at` is when the learner answered (a review sent late keeps its
 * time), and `local_date` the calendar date where they were, in `time_zone`.
 */
export const reviewLog = pgTable(
  "review_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    phraseId: text("phrase_id").notNull(),
    skill: text("skill", { enum: REVIEW_SKILLS }).notNull(),
    given: jsonb("given").$type<ReviewGiven>().notNull(),
    /** right, almost or wrong (src/course/grading.ts). */
    grade: text("grade", { enum: GRADES }).notNull(),
    /** The FSRS rating the answer earned: 1 Again, 2 Hard, 3 Good, 4 Easy. */
    rating: integer("rating").$type<ReviewEvent["rating"]>().notNull(),
    hinted: boolean("hinted").notNull().default(false),
    durationMs: integer("duration_ms").notNull(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }).notNull(),
    timeZone: text("time_zone").notNull(),
    localDate: text("local_date").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("review_log_user_id_client_id_idx").on(table.userId, table.clientId),
    index("review_log_card_idx").on(table.userId, table.chapterId, table.dayId, table.phraseId, table.skill),
    index("review_log_user_id_received_at_idx").on(table.userId, table.receivedAt),
    check("review_log_rating_check", sql`${table.rating} between 1 and 4`),
  ],
);

/**
 * A learner's reviews of one local date in one zone, kept with each review (the log's rollup): how
 * many, the time they count towards a minutes goal (bounded by what the server saw), and when the
 * last one counted. The summary and the streak read these rows over a bounded window, not the log.
 */
export const reviewDay = pgTable(
  "review_day",
  {
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    localDate: text("local_date").notNull(),
    timeZone: text("time_zone").notNull(),
    reviews: integer("reviews").notNull(),
    countedMs: bigint("counted_ms", { mode: "number" }).notNull(),
    lastAt: timestamp("last_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.localDate, table.timeZone] })],
);
