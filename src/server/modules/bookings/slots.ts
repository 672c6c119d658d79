import { DateTime } from "luxon";
import { type Availability, minutesOf, SESSION_TIME_FORMAT, type TimeRange, type Weekday } from "#course/bookings";

/** A span of time, as instants. */
export interface Span {
  startsAt: Date;
  endsAt: Date;
}

/**
 * Whether two spans share any time ([start, end): one ending as the other starts does not). The
 * same rule as PostgreSQL's `tstzrange(starts_at, ends_at) && …` in the booking table's exclusion
 * constraint.
 */
export const overlaps = (a: Span, b: Span) =>
  a.startsAt.getTime() < b.endsAt.getTime() && b.startsAt.getTime() < a.endsAt.getTime();

/**
 * A date's wall-clock time in a zone, as an instant. A time the clocks skip (01:30 in London on the
 * morning they go forward) is read as the same time after the change (02:30 BST); a time that
 * happens twice (01:30 the morning they go back) as its later, standard-time one.
 */
function instantOf(date: string, minutes: number, timeZone: string): DateTime {
  const midnight = DateTime.fromISO(date, { zone: timeZone }).startOf("day");
  if (minutes === 24 * 60) return midnight.plus({ days: 1 }).startOf("day");
  return DateTime.fromObject(
    {
      year: midnight.year,
      month: midnight.month,
      day: midnight.day,
      hour: Math.floor(minutes / 60),
      minute: minutes % 60,
    },
    { zone: timeZone },
  );
}

/** The ranges a tutor works on a date: the week's for its weekday and any extra hours, or none on a day off. */
function rangesOn(availability: Availability, date: string, weekday: Weekday): { start: number; end: number }[] {
  const exceptions = availability.exceptions.filter((exception) => exception.date === date);
  if (exceptions.some((exception) => exception.kind === "off")) return [];
  const weekly = availability.weekly.find((day) => day.weekday === weekday)?.ranges ?? [];
  const extra = exceptions.flatMap((exception) => (exception.kind === "extra" ? exception.ranges : []));
  return mergeRanges([...weekly, ...extra]);
}

/** Ranges in order with overlapping or touching ones joined: extra hours may overlap the week's. */
function mergeRanges(ranges: TimeRange[]): { start: number; end: number }[] {
  const sorted = ranges
    .map((range) => ({ start: minutesOf(range.start)!, end: minutesOf(range.end)! }))
    .filter((range) => range.start < range.end)
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/**
 * Every session of a tutor's hours on the dates (in the tutor's own zone) from `from`'s to `to`'s:
 * each range cut into back-to-back sessions of their length from its start, in order of time. A
 * range runs in real time: on the night the clocks change it is an hour shorter or longer.
 */
export function slotGrid(availability: Availability, from: Date, to: Date): Span[] {
  const { timeZone, sessionMinutes } = availability;
  const length = sessionMinutes * 60_000;
  const slots: Span[] = [];
  let day = DateTime.fromJSDate(from, { zone: timeZone }).startOf("day");
  const lastDay = DateTime.fromJSDate(to, { zone: timeZone }).startOf("day");
  while (day <= lastDay) {
    const date = day.toISODate()!;
    for (const range of rangesOn(availability, date, day.weekday as Weekday)) {
      const end = instantOf(date, range.end, timeZone).toMillis();
      for (let start = instantOf(date, range.start, timeZone).toMillis(); start + length <= end; start += length) {
        slots.push({ startsAt: new Date(start), endsAt: new Date(start + length) });
      }
    }
    day = day.plus({ days: 1 }).startOf("day");
  }
  return slots;
}

/** The earliest and latest start a learner may book at `now`: past the notice, up to the horizon. */
export function bookableWindow(availability: Availability, now: Date): { earliest: number; latest: number } {
  return {
    earliest: now.getTime() + availability.noticeHours * 60 * 60_000,
    latest: now.getTime() + availability.horizonDays * 24 * 60 * 60_000,
  };
}

/**
 * The sessions of `grid` (slotGrid's, covering the window) a learner may book at `now`: starting
 * at least the notice after `now`, no later than the horizon, and sharing no time with `busy`.
 */
export function openSlotsOf(
  grid: readonly Span[],
  availability: Availability,
  now: Date,
  busy: readonly Span[],
): Span[] {
  const { earliest, latest } = bookableWindow(availability, now);
  return grid.filter(
    (slot) =>
      slot.startsAt.getTime() >= earliest &&
      slot.startsAt.getTime() <= latest &&
      !busy.some((taken) => overlaps(taken, slot)),
  );
}

/**
 * The sessions a learner may book with a tutor at `now` (docs/decisions/048-booking-a-tutor.md):
 * the tutor's hours, dated in their own time zone, cut into sessions (slotGrid), kept when they
 * start at least the notice after `now`, no later than the horizon, and share no time with `busy`
 * (the tutor's bookings). In order of time.
 */
export function openSlots(availability: Availability, now: Date, busy: readonly Span[] = []): Span[] {
  const { earliest, latest } = bookableWindow(availability, now);
  return openSlotsOf(slotGrid(availability, new Date(earliest), new Date(latest)), availability, now, busy);
}

/** The wall-clock date and time of an instant in a zone, for a reader there ("Tue 3 Mar 2026, 09:30 (GMT)"). */
export function timeIn(instant: Date, timeZone: string): string {
  const when = new Intl.DateTimeFormat("en-GB", { ...SESSION_TIME_FORMAT, timeZone }).format(instant);
  return `${when} (${timeZone.replaceAll("_", " ")})`;
}

/** The instant the day `at` falls on begins in a zone. */
export function startOfDayIn(at: Date, timeZone: string): Date {
  return DateTime.fromJSDate(at, { zone: timeZone }).startOf("day").toJSDate();
}
