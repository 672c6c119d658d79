import { z } from "zod";
import {
  type Availability,
  BOOKING_MESSAGE_MAX,
  BOOKING_REASON_MAX,
  type BookingStatus,
  DATE_EXCEPTIONS_MAX,
  HORIZON_DAYS_MAX,
  HORIZON_DAYS_MIN,
  minutesOf,
  NO_SHOW_PARTIES,
  NOTICE_HOURS_MAX,
  type NoShowParty,
  RANGES_PER_DAY_MAX,
  rangesClash,
  SESSION_MINUTES_OPTIONS,
  type TimeRange,
  TUTOR_BIO_MAX,
  TUTOR_LANGUAGE_MAX,
  TUTOR_LANGUAGES_MAX,
  WEEKDAY_NAMES,
  WEEKDAYS,
} from "#course/bookings";
import { canonicalTimeZone } from "#course/review-rules";
import { multiLineText, singleLineText } from "#course/text-fields";

/**
 * The bookings API's contract (docs/decisions/048-booking-a-tutor.md), under /api/bookings:
 *
 * GET  /hours                          TutorHours: the signed-in tutor's hours and profile
 * PUT  /hours                          TutorHoursInput → TutorHours
 * GET  /week                           TutorWeek: the tutor's sessions today and this week, and who waits
 * GET  /tutors                         { tutors: TutorCard[] }: who takes bookings
 * GET  /days/:chapterId/:dayId/slots   ?tutorId → DaySlots, in the learner's time zone
 * POST /days/:chapterId/:dayId         BookInput → 201 { booking }
 * GET  /mine                           { timeZone, bookings }: the caller's sessions, as learner or tutor
 * GET  /:bookingId                     { booking } with its changes
 * GET  /:bookingId/invite.ics          the booking's calendar event
 * GET  /:bookingId/times               MoveTimes: the open times the session may move to, for its learner or tutor
 * POST /:bookingId/cancel              ReasonInput → { booking }
 * POST /:bookingId/propose             ProposeInput → { booking }: either side asks for another time
 * POST /:bookingId/proposal            AnswerInput → { booking }: the other side accepts or declines it
 * POST /:bookingId/no-show             NoShowInput → { booking }: the other side did not come (10 min after the start, not held)
 * POST /:bookingId/messages            MessageInput → 201 { booking }: a message to the other side
 */

/** Why a booking or a change was refused: the page shows the message as it is. */
export const BOOKING_ERRORS = {
  SLOT_PAST: "That time has already passed. Pick one of the times shown.",
  SLOT_OUTSIDE_HOURS: "That time is not one of the tutor's open slots. Pick one of the times shown.",
  SLOT_INSIDE_NOTICE: (tutor: string, hours: number) =>
    `${tutor} takes bookings at least ${hours} ${hours === 1 ? "hour" : "hours"} ahead. Pick a later time.`,
  SLOT_TOO_FAR: (tutor: string, days: number) =>
    `${tutor} takes bookings up to ${days} ${days === 1 ? "day" : "days"} ahead. Pick an earlier time.`,
  SLOT_TAKEN: "Someone has just booked that time. Pick another.",
  LEARNER_BUSY: "You already have a session at that time.",
  DAY_ALREADY_BOOKED: "You already have a session booked for this day. Cancel it first to book another time.",
  TOO_MANY_BOOKINGS: (max: number) =>
    `You can hold at most ${max} upcoming sessions. Have one, or cancel one, before booking another.`,
  NO_LIVE_SESSION: "This day has no live session to book.",
  NOT_A_TUTOR: "This person takes no bookings.",
  OWN_SESSION: "You cannot book a session with yourself.",
  CANCEL_TOO_LATE: (hours: number) =>
    `Sessions can be cancelled up to ${hours} hours before they start. Send your tutor a message instead.`,
  NOT_UPCOMING: "This session has already started or ended.",
  NOT_ACTIVE: "This booking has been cancelled or moved.",
  NOT_STARTED: (minutes: number) => `You can mark a no-show from ${minutes} minutes after the session's start.`,
  NO_SHOW_MARKED: "A no-show is already marked for this session.",
  SESSION_ENDED: "The tutor ended this session with its record, so it took place: it cannot be marked as a no-show.",
  SESSION_MET:
    "The learner and the tutor were in the session room together, so the session took place: it cannot be marked as a no-show.",
  NO_PROPOSAL: "There is no new time waiting for your answer.",
  ANSWERED_BY_OTHER: (other: string) => `You asked for this time: ${other} accepts or declines it.`,
  REQUEST_NOT_OPEN: "That time is not one of your tutor's open times for this session. Pick one of the times shown.",
  PROPOSAL_PASSED: "The proposed time has already passed. Ask for another.",
  PROPOSAL_SAME_TIME: "That is the session's time already. Propose a different one.",
  PROPOSAL_TOO_FAR: (days: number) =>
    `A new time can be at most ${days} ${days === 1 ? "day" : "days"} ahead, as far as learners may book this tutor. Pick an earlier time.`,
  PROPOSAL_OUTSIDE_HOURS:
    "That time is not a session of the tutor's hours. Pick a start in their weekly or extra hours (add extra hours for that date first if needed).",
  TOO_MANY_MESSAGES: (max: number) => `At most ${max} messages can be sent about one session.`,
  SESSION_HELD:
    "This session was held: its tutor ended it in the session room. It stays as the day's record and can no longer be cancelled, moved or marked as a no-show.",
} as const;

/** Messages a booking may carry, from both sides together. */
export const MESSAGES_PER_BOOKING_MAX = 20;

const time = (label: string) =>
  z.string({ error: `${label} must be a time such as 09:30.` }).refine((value) => minutesOf(value) !== null, {
    message: `${label} must be a time such as 09:30.`,
  });

const rangeSchema = z
  .object({ start: time("A start"), end: time("An end") })
  .strict()
  .refine((range) => minutesOf(range.start)! < minutesOf(range.end)!, {
    message: "Each range must end after it starts.",
  });

/** A day's ranges, in order. That none overlap is checked by the day, which names itself (`clashIssue`). */
const rangesSchema = (label: string) =>
  z
    .array(rangeSchema, { error: `${label} must be a list of ranges.` })
    .max(RANGES_PER_DAY_MAX, `${label} can have at most ${RANGES_PER_DAY_MAX} ranges.`)
    .transform((ranges) => [...ranges].sort((a, b) => minutesOf(a.start)! - minutesOf(b.start)!));

/** A day's ranges must not overlap (touching is fine): the message names the day, as the form shows it. */
const clashIssue =
  <Day extends { ranges: TimeRange[] }>(dayName: (day: Day) => string) =>
  (day: Day, ctx: z.RefinementCtx) => {
    const clash = rangesClash(day.ranges);
    if (clash)
      ctx.addIssue({ code: "custom", message: `${dayName(day)}: ${clash}. Hours on one day must not overlap.` });
  };

const dateSchema = z
  .string({ error: "A date must be written as YYYY-MM-DD." })
  .regex(/^\d{4}-\d{2}-\d{2}$/, "A date must be written as YYYY-MM-DD.")
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    {
      message: "That date does not exist.",
    },
  );

const timeZoneSchema = z
  .string({ error: "Time zone must be an IANA name such as Europe/London." })
  .refine((value) => canonicalTimeZone(value) !== undefined, {
    message: "Time zone must be an IANA name such as Europe/London.",
  })
  .transform((value) => canonicalTimeZone(value)!);

/** A tutor's hours and profile, sent whole: what the tutor's page saves. */
export const tutorHoursSchema = z
  .object({
    timeZone: timeZoneSchema,
    bio: multiLineText(
      z
        .string({ error: "Bio must be text." })
        .trim()
        .max(TUTOR_BIO_MAX, `Bio must be at most ${TUTOR_BIO_MAX} characters.`),
      "Your bio",
    ),
    languages: z
      .array(
        singleLineText(
          z
            .string({ error: "Each language must be text." })
            .trim()
            .min(1, "A language cannot be empty.")
            .max(TUTOR_LANGUAGE_MAX, `Each language must be at most ${TUTOR_LANGUAGE_MAX} characters.`),
          "A language",
        ),
        { error: "Languages must be a list." },
      )
      .max(TUTOR_LANGUAGES_MAX, `List at most ${TUTOR_LANGUAGES_MAX} languages.`),
    sessionMinutes: z.union(
      SESSION_MINUTES_OPTIONS.map((minutes) => z.literal(minutes)),
      { error: `Session length must be one of ${SESSION_MINUTES_OPTIONS.join(", ")} minutes.` },
    ),
    noticeHours: z
      .number({ error: "Notice must be a number of hours." })
      .int("Notice must be a whole number of hours.")
      .min(0, "Notice cannot be negative.")
      .max(NOTICE_HOURS_MAX, `Notice can be at most ${NOTICE_HOURS_MAX} hours.`),
    horizonDays: z
      .number({ error: "How far ahead must be a number of days." })
      .int("How far ahead must be a whole number of days.")
      .min(HORIZON_DAYS_MIN, `Learners must be able to book at least ${HORIZON_DAYS_MIN} day ahead.`)
      .max(HORIZON_DAYS_MAX, `Learners can book at most ${HORIZON_DAYS_MAX} days ahead.`),
    weekly: z
      .array(
        z
          .object({
            weekday: z.union(
              WEEKDAYS.map((day) => z.literal(day)),
              { error: "A weekday is 1 (Monday) to 7 (Sunday)." },
            ),
            ranges: rangesSchema("A day's hours"),
          })
          .strict()
          .superRefine(clashIssue((day) => WEEKDAY_NAMES[day.weekday])),
        { error: "Weekly hours must be a list of days." },
      )
      .max(WEEKDAYS.length, "Weekly hours have at most 7 days.")
      .refine((days) => new Set(days.map((day) => day.weekday)).size === days.length, {
        message: "Each weekday can appear once.",
      }),
    exceptions: z
      .array(
        z.discriminatedUnion(
          "kind",
          [
            z.object({ date: dateSchema, kind: z.literal("off") }).strict(),
            z
              .object({
                date: dateSchema,
                kind: z.literal("extra"),
                ranges: rangesSchema("Extra hours").refine(
                  (ranges) => ranges.length > 0,
                  "Extra hours need at least one range.",
                ),
              })
              .strict()
              .superRefine(clashIssue((day) => `Extra hours on ${day.date}`)),
          ],
          { error: 'Each date exception is a day "off" or "extra" hours.' },
        ),
        { error: "Date exceptions must be a list." },
      )
      .max(DATE_EXCEPTIONS_MAX, `At most ${DATE_EXCEPTIONS_MAX} date exceptions.`),
  })
  .strict();
export type TutorHoursInput = z.input<typeof tutorHoursSchema>;

/** Whether a value's YYYY-MM-DD is a date of the calendar (the engine reads 30 February as 2 March). */
const isDate = (value: string) => {
  const day = value.slice(0, 10);
  const midnight = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(midnight.getTime()) && midnight.toISOString().startsWith(day);
};

/** Times a booking may name at all: past this any time is a mistake, and year 9999 would not fit a session's end. */
const INSTANT_RANGE = { from: Date.UTC(2000, 0, 1), to: Date.UTC(2100, 0, 1) };

const instantSchema = (label: string) =>
  z
    .string({ error: `${label} must be a date and time.` })
    .refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)) && isDate(value), {
      message: `${label} must be a date and time such as 2026-03-30T08:00:00Z.`,
    })
    .refine(
      (value) => {
        const at = Date.parse(value);
        return Number.isNaN(at) || (at >= INSTANT_RANGE.from && at < INSTANT_RANGE.to);
      },
      { message: `${label} is out of range: pick a time in the coming weeks.` },
    )
    .transform((value) => new Date(value));

const idSchema = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .min(1, `${label} is required.`)
    .max(200, `${label} must be at most 200 characters.`);

export const slotsQuerySchema = z.object({ tutorId: idSchema("Tutor id").optional() }).strict();

export const bookSchema = z.object({ tutorId: idSchema("Tutor id"), startsAt: instantSchema("Start") }).strict();

const reasonSchema = multiLineText(
  z
    .string({ error: "A reason must be text." })
    .trim()
    .max(BOOKING_REASON_MAX, `A reason must be at most ${BOOKING_REASON_MAX} characters.`),
  "Your reason",
).optional();

export const cancelSchema = z.object({ reason: reasonSchema }).strict();
export const proposeSchema = z.object({ startsAt: instantSchema("New start"), reason: reasonSchema }).strict();
export const answerSchema = z.object({ accept: z.boolean({ error: "Say accept: true or false." }) }).strict();
export const noShowSchema = z
  .object({
    /** Only an Admin names the party; each side marks the other. */
    party: z.enum(NO_SHOW_PARTIES, { error: "Party must be learner or tutor." }).optional(),
  })
  .strict();
export const messageSchema = z
  .object({
    text: multiLineText(
      z
        .string({ error: "Write a message." })
        .trim()
        .min(1, "Write a message.")
        .max(BOOKING_MESSAGE_MAX, `A message must be at most ${BOOKING_MESSAGE_MAX} characters.`),
      "Your message",
    ),
  })
  .strict();

export type * from "./bookings.views.types";

/** What the account wrote about a live session: a message, or the reason it gave for a cancel or a proposal. */
export interface ExportedBookingMessage {
  bookingId: string;
  kind: "message" | "cancelled" | "proposed" | "requested";
  text: string;
  at: Date;
}

/** A tutor's hours and profile as they saved them (src/course/bookings.ts). */
export interface ExportedTutorHours {
  timeZone: string;
  bio: string;
  languages: string[];
  sessionMinutes: number;
  noticeHours: number;
  horizonDays: number;
  weekly: Availability["weekly"];
  exceptions: Availability["exceptions"];
  updatedAt: Date;
}

/** A live session the account booked or teaches, in any state. */
export interface ExportedBooking {
  id: string;
  role: "learner" | "tutor";
  chapterId: string;
  dayId: string;
  startsAt: Date;
  endsAt: Date;
  status: BookingStatus;
  noShow: NoShowParty | null;
  createdAt: Date;
}
