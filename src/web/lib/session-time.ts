import { SESSION_TIME_FORMAT } from "#course/bookings";

/** How a session's times read in one person's zone, as the server's emails write them. */

const dateTime = (timeZone: string) => new Intl.DateTimeFormat("en-GB", { ...SESSION_TIME_FORMAT, timeZone });

const clock = (timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

const longDate = (timeZone: string) =>
  new Intl.DateTimeFormat("en-GB", { timeZone, weekday: "long", day: "numeric", month: "long" });

const isoDate = (timeZone: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });

/** A zone's name as people read it: "Asia/Kuala_Lumpur" → "Asia/Kuala Lumpur". */
export const zoneName = (timeZone: string) => timeZone.replaceAll("_", " ");

/** "Mon, 30 Mar 2026, 16:00–16:30" in the zone. */
export function sessionTime(startsAt: string, endsAt: string, timeZone: string): string {
  return `${dateTime(timeZone).format(new Date(startsAt))}–${clock(timeZone).format(new Date(endsAt))}`;
}

/** "Mon, 30 Mar 2026, 16:00" in the zone. */
export const momentIn = (instant: string, timeZone: string) => dateTime(timeZone).format(new Date(instant));

/** "16:00" in the zone. */
export const timeOfDay = (instant: string, timeZone: string) => clock(timeZone).format(new Date(instant));

/** "Tue 09:00" in the zone: a moment within the coming days. */
export const weekdayTime = (instant: string, timeZone: string) =>
  `${new Intl.DateTimeFormat("en-GB", { timeZone, weekday: "short" }).format(new Date(instant))} ${timeOfDay(instant, timeZone)}`;

/** "Monday 30 March" in the zone. */
export const dayHeading = (instant: string, timeZone: string) => longDate(timeZone).format(new Date(instant));

/** "2026-03-30": the calendar date of an instant in the zone, to group slots by day. */
export const dateKey = (instant: string | Date, timeZone: string) => isoDate(timeZone).format(new Date(instant));
