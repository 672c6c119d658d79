import { sql } from "drizzle-orm";
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
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
import { user } from "#server/db/auth.tables";
import { createdAt, quoted, updatedAt } from "#server/db/columns";

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
