import { daysBetween, localDate } from "#course/review-rules";

/**
 * When the next review card is due, as the review page and My Journey say it: "today at 3:40 pm",
 * "tomorrow at 9:00 am", "on Friday at 9:00 am", "on Thursday 12 March at 9:00 am", in the zone the
 * summary counted "today" in (the device's).
 */
export function nextReviewTime(nextDueAt: string, timeZone: string, now = new Date()): string {
  const at = new Date(nextDueAt);
  if (at.getTime() <= now.getTime()) return "now";
  const format = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat("en-GB", { timeZone, ...options });
  const time = format({ hour: "numeric", minute: "2-digit", hourCycle: "h12" }).format(at);
  const days = daysBetween(localDate(now, timeZone), localDate(at, timeZone));
  if (days === 0) return `today at ${time}`;
  if (days === 1) return `tomorrow at ${time}`;
  const day =
    days < 7
      ? { weekday: "long" as const }
      : { weekday: "long" as const, day: "numeric" as const, month: "long" as const };
  return `on ${format(day).format(at)} at ${time}`;
}
