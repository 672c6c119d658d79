/**
 * Live sessions booked with a tutor (docs/decisions/048-booking-a-tutor.md): the rules both sides
 * read. The server computes slots and enforces every rule; the web app shows them.
 */

/** A tutor's defaults until they change them. */
export const DEFAULT_SESSION_MINUTES = 30;
export const DEFAULT_NOTICE_HOURS = 12;
export const DEFAULT_HORIZON_DAYS = 28;

/** What a tutor may set: a session of 15 min to 2 h, notice up to a week, booking up to 12 weeks ahead. */
export const SESSION_MINUTES_OPTIONS = [15, 20, 30, 45, 60, 90, 120] as const;
export const NOTICE_HOURS_MAX = 7 * 24;
export const HORIZON_DAYS_MIN = 1;
export const HORIZON_DAYS_MAX = 12 * 7;

/** A learner cancels free of charge until this long before the start; inside it, they message the tutor. */
export const FREE_CANCEL_HOURS = 12;
/** Upcoming sessions a learner may hold in all (one per day of the course). */
export const UPCOMING_BOOKINGS_MAX = 3;

/** The most a tutor writes about themself, lists of ranges and dates, and a reason or message. */
export const TUTOR_BIO_MAX = 1000;
export const TUTOR_LANGUAGES_MAX = 8;
export const TUTOR_LANGUAGE_MAX = 40;
export const RANGES_PER_DAY_MAX = 6;
export const DATE_EXCEPTIONS_MAX = 60;
export const BOOKING_REASON_MAX = 500;
export const BOOKING_MESSAGE_MAX = 2000;

/** Reminders before a session, each sent once to each side. */
export const BOOKING_REMINDER_KINDS = ["24h", "10m"] as const;
export type BookingReminderKind = (typeof BOOKING_REMINDER_KINDS)[number];
export const BOOKING_REMINDERS: readonly { kind: BookingReminderKind; beforeMs: number }[] = [
  { kind: "24h", beforeMs: 24 * 60 * 60_000 },
  { kind: "10m", beforeMs: 10 * 60_000 },
];

/**
 * A booking's life: confirmed when booked; another time asked for by either side (the tutor's
 * proposal, the learner's request) is a booking of its own, "proposed", holding that time until the
 * other side accepts it (the old one becomes "moved") or declines it ("declined", the old one
 * stands); "cancelled" by either side, or when a later ask replaces it.
 */
export const BOOKING_STATUSES = ["confirmed", "proposed", "cancelled", "declined", "moved"] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
/** The statuses that hold the tutor's time: PostgreSQL's exclusion constraint covers these. */
export const HOLDING_STATUSES = ["confirmed", "proposed"] as const satisfies readonly BookingStatus[];

/**
 * Who did not come, marked by the other side once the grace after the start has passed, when the
 * session did not take place (docs/decisions/063-limits-and-no-shows.md).
 */
export const NO_SHOW_PARTIES = ["learner", "tutor"] as const;
export type NoShowParty = (typeof NO_SHOW_PARTIES)[number];
/** How long after the start a no-show may be marked: a side running late has this long to come. */
export const NO_SHOW_GRACE_MINUTES = 10;

/**
 * What happened to a booking, kept with who did it, when and why. Another time is "proposed" by the
 * tutor (or an Admin) or "requested" by the learner: the kind says who asked (decision 084).
 */
export const BOOKING_CHANGE_KINDS = [
  "booked",
  "cancelled",
  "proposed",
  "requested",
  "accepted",
  "declined",
  "no-show",
  "message",
] as const;
export type BookingChangeKind = (typeof BOOKING_CHANGE_KINDS)[number];

/** ISO weekdays: 1 is Monday, 7 Sunday. */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_NAMES: Record<Weekday, string> = {
  1: "Monday",
  2: "Tuesday",
  3: "Wednesday",
  4: "Thursday",
  5: "Friday",
  6: "Saturday",
  7: "Sunday",
};

/** A range of a day's wall-clock time, "HH:MM" to "HH:MM" ("24:00" ends at midnight). */
export interface TimeRange {
  start: string;
  end: string;
}

/** "HH:MM" as minutes since midnight, or null when it is not a time of day (24:00 is allowed, as an end). */
export function minutesOf(time: string): number | null {
  const match = /^([01][0-9]|2[0-4]):([0-5][0-9])$/.exec(time);
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return minutes <= 24 * 60 ? minutes : null;
}

/**
 * Where a day's ranges clash, as its owner reads it ("09:00–10:30 overlaps 10:00–11:00", "09:00–12:00
 * is there twice"), or null when none do. Touching is fine (09:00–10:00 and 10:00–11:00). Ranges with
 * a time that is not one are left to their own check.
 */
export function rangesClash(ranges: readonly TimeRange[]): string | null {
  const valid = ranges.filter((range) => minutesOf(range.start) !== null && minutesOf(range.end) !== null);
  const sorted = [...valid].sort(
    (a, b) => minutesOf(a.start)! - minutesOf(b.start)! || minutesOf(a.end)! - minutesOf(b.end)!,
  );
  for (let index = 1; index < sorted.length; index += 1) {
    const before = sorted[index - 1]!;
    const range = sorted[index]!;
    if (minutesOf(range.start)! >= minutesOf(before.end)!) continue;
    const shown = (each: TimeRange) => `${each.start}–${each.end}`;
    return before.start === range.start && before.end === range.end
      ? `${shown(range)} is there twice`
      : `${shown(before)} overlaps ${shown(range)}`;
  }
  return null;
}

/** Minutes since midnight as "HH:MM". */
export function timeOf(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** A tutor's weekly hours and date exceptions, in their own time zone: what slots are made from. */
export interface Availability {
  timeZone: string;
  sessionMinutes: number;
  noticeHours: number;
  horizonDays: number;
  /** Ranges of each weekday; several a day, in order, never overlapping. */
  weekly: { weekday: Weekday; ranges: TimeRange[] }[];
  /** A date off ("off": no hours that date) or extra hours that date ("extra", beside the week's). */
  exceptions: ({ date: string; kind: "off" } | { date: string; kind: "extra"; ranges: TimeRange[] })[];
}

/**
 * How a session's date and time read, in the reader's zone ("Mon, 30 Mar 2026, 16:00"): the emails,
 * the pages and their tests write it the same way (Intl.DateTimeFormat, en-GB, with `timeZone`).
 */
export const SESSION_TIME_FORMAT: Intl.DateTimeFormatOptions = {
  weekday: "short",
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
};
