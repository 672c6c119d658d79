import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  type Availability,
  BOOKING_CHANGE_KINDS,
  BOOKING_REMINDER_KINDS,
  BOOKING_STATUSES,
  DEFAULT_HORIZON_DAYS,
  DEFAULT_NOTICE_HOURS,
  DEFAULT_SESSION_MINUTES,
  NO_SHOW_PARTIES,
} from "#course/bookings";
import { CALL_SIGNAL_KINDS, CHAT_MAX_LENGTH } from "#course/calls";
import { FEEDBACK_MAX_LENGTH } from "#course/feedback";
import { GRADES } from "#course/grading";
import { TASK_STATUSES } from "#course/progress-status";
import type { ReviewGiven } from "#course/review-items";
import {
  DAILY_GOAL_UNITS,
  DEFAULT_DAILY_GOAL,
  DEFAULT_NEW_CARDS_PER_DAY,
  DEFAULT_REMINDER_HOUR,
  DEFAULT_TIME_ZONE,
  MAX_NEW_CARDS_PER_DAY,
  REVIEW_SKILLS,
} from "#course/review-rules";
import type { ReviewEvent } from "#course/review-schedule";
import { ROLES } from "#course/roles";
import { SELF_RATINGS, TAKE_TYPES, TUTOR_RATING_MAX, TUTOR_RATING_MIN } from "#course/speaking";
import { THEMES } from "#course/themes";

export const roleEnum = pgEnum("role", ROLES);

/** A list of constants as SQL string literals, for a check constraint. */
const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/**
 * Better Auth's user table, extended with the learner's profile (spec section 3, "profiles"), their
 * settings (theme, email notifications) and the two-factor plugin's flag.
 */
export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    nickname: text("nickname"),
    role: roleEnum("role").notNull().default("Student"),
    avatarPath: text("avatar_path"),
    theme: text("theme", { enum: THEMES }).notNull().default("light"),
    emailNotifications: boolean("email_notifications").notNull().default(true),
    /** Set by Better Auth's two-factor plugin once an authenticator code has been verified. */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    /** The daily review goal (src/course/review-rules.ts): a number of reviews, or of minutes. */
    dailyGoalUnit: text("daily_goal_unit", { enum: DAILY_GOAL_UNITS }).notNull().default("reviews"),
    dailyGoal: integer("daily_goal").notNull().default(DEFAULT_DAILY_GOAL.reviews),
    /** Where the learner's days begin and end, for the reminder and a day's goal (an IANA name). */
    timeZone: text("time_zone").notNull().default(DEFAULT_TIME_ZONE),
    /** The local hour (0-23) of the daily review reminder, sent only with emailNotifications on. */
    reminderHour: integer("reminder_hour").notNull().default(DEFAULT_REMINDER_HOUR),
    /** Cards met but never reviewed that may enter the learner's due pile per local day (decision 055). */
    newCardsPerDay: integer("new_cards_per_day").notNull().default(DEFAULT_NEW_CARDS_PER_DAY),
    /**
     * Names the learner in the unsubscribe links of their reminders, in place of their id; replaced
     * when they turn email notifications on again, which revokes every link sent before.
     */
    unsubscribeKey: uuid("unsubscribe_key").notNull().unique().defaultRandom(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check("user_theme_check", sql`${table.theme} in (${sql.raw(THEMES.map((theme) => `'${theme}'`).join(", "))})`),
    check(
      "user_daily_goal_unit_check",
      sql`${table.dailyGoalUnit} in (${sql.raw(DAILY_GOAL_UNITS.map((unit) => `'${unit}'`).join(", "))})`,
    ),
    check("user_daily_goal_check", sql`${table.dailyGoal} > 0`),
    check("user_reminder_hour_check", sql`${table.reminderHour} between 0 and 23`),
    check(
      "user_new_cards_per_day_check",
      sql`${table.newCardsPerDay} between 0 and ${sql.raw(String(MAX_NEW_CARDS_PER_DAY))}`,
    ),
  ],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /**
     * When the password was last entered again in this session (POST /api/account/confirm-password).
     * Jalan's own column, unknown to Better Auth: with createdAt it says whether the session is fresh
     * enough for the account's sensitive reads.
     */
    passwordConfirmedAt: timestamp("password_confirmed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("session_user_id_idx").on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("account_user_id_idx").on(table.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("verification_identifier_idx").on(table.identifier)],
);

/**
 * Better Auth's two-factor plugin: the encrypted TOTP secret and backup codes of an account, and its
 * count of failed codes (the plugin locks the account for a while after too many).
 */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  // One row per account: the plugin looks rows up by user id and updates the row a second "enable" finds.
  (table) => [uniqueIndex("two_factor_user_id_idx").on(table.userId)],
);

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

export const tutorFeedback = pgTable(
  "tutor_feedback",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    studentId: text("student_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    tutorId: text("tutor_id").references(() => user.id, { onDelete: "set null" }),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    feedback: text("feedback").notNull(),
    createdAt: createdAt(),
    /** When its tutor last corrected it; null while it reads as first sent. */
    correctedAt: timestamp("corrected_at", { withTimezone: true }),
    /** The session whose notes it is, when a tutor ended a session's room with notes. */
    bookingId: uuid("booking_id").references(() => booking.id, { onDelete: "set null" }),
  },
  (table) => [
    index("tutor_feedback_student_id_idx").on(table.studentId),
    index("tutor_feedback_tutor_idx").on(table.tutorId, table.studentId),
  ],
);

export const contactMessage = pgTable(
  "contact_message",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    fullName: text("full_name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    /** HMAC of the sender's network address (never the address itself): the contact form's rate-limit key. */
    clientKey: text("client_key"),
    createdAt: createdAt(),
  },
  (table) => [
    index("contact_message_created_at_idx").on(table.createdAt),
    index("contact_message_client_key_created_at_idx").on(table.clientKey, table.createdAt),
  ],
);

/**
 * Better Auth's rate-limit counts (its "database" storage): one row per client address and path,
 * shared by every instance and kept across restarts.
 */
export const rateLimit = pgTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  /** Milliseconds since the epoch, as Better Auth writes it. */
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/**
 * Jalan's own limits (src/server/http/request-limit.ts): failed sign-ins per account, password checks
 * per user and per address. One row per key and fixed window.
 */
export const requestLimit = pgTable(
  "request_limit",
  {
    key: text("key").primaryKey(),
    windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
    count: integer("count").notNull(),
  },
  (table) => [index("request_limit_window_started_at_idx").on(table.windowStartedAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/** Files behind the storage interface (src/server/storage/storage.ts): avatars today. Keys are made by the server. */
export const storedFile = pgTable("stored_file", {
  key: text("key").primaryKey(),
  contentType: text("content_type").notNull(),
  data: bytea("data").notNull(),
  createdAt: createdAt(),
});

/**
 * Every email the app sends, written before it is sent, so no message is lost with a process. With
 * SMTP_URL, any instance delivers waiting rows (src/server/mail/mailer.ts); without it, this table is
 * the outbox a developer reads (`npm run outbox`).
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    /** The link the message is about (verification, reset): it carries a one-time token. */
    link: text("link"),
    /** Header fields the message is sent with beyond From, To and Subject (a reminder's List-Unsubscribe). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    /** A calendar invite sent with the message (text/calendar, RFC 5546's method), such as a booking's. */
    calendar: jsonb("calendar").$type<{ method: "REQUEST" | "CANCEL"; content: string }>(),
    createdAt: createdAt(),
    /** When the SMTP server accepted it; null while it waits, and always without SMTP_URL. */
    sentAt: timestamp("sent_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    /** An instance is sending it until then; after that another may try (the first one died). */
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    lastError: text("last_error"),
  },
  (table) => [index("mail_outbox_waiting_idx").on(table.createdAt).where(sql`${table.sentAt} is null`)],
);

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

/**
 * A tutor's bookable hours (docs/decisions/048-booking-a-tutor.md) and the profile learners see
 * beside them (their photo is their avatar). Weekly hours and date exceptions are in `time_zone`,
 * the tutor's own; slots are computed from this one row (src/server/modules/bookings/slots.ts).
 */
export const tutorHours = pgTable("tutor_hours", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  timeZone: text("time_zone").notNull(),
  bio: text("bio").notNull().default(""),
  languages: jsonb("languages").$type<string[]>().notNull().default([]),
  sessionMinutes: integer("session_minutes").notNull().default(DEFAULT_SESSION_MINUTES),
  noticeHours: integer("notice_hours").notNull().default(DEFAULT_NOTICE_HOURS),
  horizonDays: integer("horizon_days").notNull().default(DEFAULT_HORIZON_DAYS),
  weekly: jsonb("weekly").$type<Availability["weekly"]>().notNull().default([]),
  exceptions: jsonb("exceptions").$type<Availability["exceptions"]>().notNull().default([]),
  updatedAt: updatedAt(),
});

/**
 * A live session booked with a tutor for a day of the course. A tutor's proposal of a new time is a
 * row of its own ("proposed", `replaces_id` the booking it would move) that holds that time until
 * the learner answers. Rows of one `invite_uid` are one calendar event: its UID in every invite,
 * `sequence` raised on each change. PostgreSQL's exclusion constraints (migration 0010) keep the
 * rows that hold time from overlapping for one tutor, and for one learner, except within one event.
 */
export const booking = pgTable(
  "booking",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    inviteUid: uuid("invite_uid").notNull(),
    sequence: integer("sequence").notNull().default(0),
    /**
     * The two sides; null once that side's account is deleted (docs/decisions/064): the other side
     * keeps the session, cancelled first when it was still to come.
     */
    tutorId: text("tutor_id").references(() => user.id, { onDelete: "set null" }),
    learnerId: text("learner_id").references(() => user.id, { onDelete: "set null" }),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    startsAt: timestamp("starts_at", { withTimezone: true }).notNull(),
    endsAt: timestamp("ends_at", { withTimezone: true }).notNull(),
    status: text("status", { enum: BOOKING_STATUSES }).notNull(),
    replacesId: uuid("replaces_id"),
    /** When it was confirmed at this time (booked, or its proposal accepted): a reminder's moment must come after. */
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    /** Who did not come, marked by the other side after the start. */
    noShow: text("no_show", { enum: NO_SHOW_PARTIES }),
    /** Who marked the no-show (null once their account is gone) and when. */
    noShowBy: text("no_show_by").references(() => user.id, { onDelete: "set null" }),
    noShowAt: timestamp("no_show_at", { withTimezone: true }),
    /**
     * When its learner and tutor were first in the session room together (the room's relay saw one
     * side's hello answered by the other's): the session took place, so neither is a no-show.
     */
    metAt: timestamp("met_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("booking_tutor_starts_idx").on(table.tutorId, table.startsAt),
    index("booking_learner_starts_idx").on(table.learnerId, table.startsAt),
    index("booking_invite_idx").on(table.inviteUid),
    check("booking_ends_after_start_check", sql`${table.endsAt} > ${table.startsAt}`),
    check("booking_status_check", sql`${table.status} in (${sql.raw(quoted(BOOKING_STATUSES))})`),
    check("booking_no_show_check", sql`${table.noShow} in (${sql.raw(quoted(NO_SHOW_PARTIES))})`),
  ],
);

/** What happened to a booking: who did it (null once their account is gone), when, why. */
export const bookingChange = pgTable(
  "booking_change",
  {
    /** In the order changes were written: several may share a moment. */
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    bookingId: uuid("booking_id")
      .notNull()
      .references(() => booking.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: BOOKING_CHANGE_KINDS }).notNull(),
    actorId: text("actor_id").references(() => user.id, { onDelete: "set null" }),
    reason: text("reason"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("booking_change_booking_idx").on(table.bookingId, table.at)],
);

/** A reminder before a booking, one row per booking and kind: only the run that writes it sends it. */
export const bookingReminder = pgTable(
  "booking_reminder",
  {
    bookingId: uuid("booking_id")
      .notNull()
      .references(() => booking.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: BOOKING_REMINDER_KINDS }).notNull(),
    sentAt: timestamp("sent_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.bookingId, table.kind] }),
    check("booking_reminder_kind_check", sql`${table.kind} in (${sql.raw(quoted(BOOKING_REMINDER_KINDS))})`),
  ],
);

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
