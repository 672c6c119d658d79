import type { DailyGoalUnit } from "#course/review-rules";
import { daysBetween, type GoalDay, localDate, streak } from "#course/review-schedule";
import type { Queryable } from "#server/db/client";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import type { ReviewSummary } from "./review.contract";
import type { ReviewRepository } from "./review.repository";

/** Reviews of one day of the learner's: where it was, how many, how long, and the last one's time. */
interface ReviewDay {
  date: string;
  timeZone: string;
  reviews: number;
  durationMs: number;
  lastAt: Date;
}

type DayPlace = Pick<ReviewDay, "date" | "timeZone" | "lastAt">;

type Goal = { unit: DailyGoalUnit; amount: number };

type GoalChange = Awaited<ReturnType<SettingsModule["service"]["goalChanges"]>>[number];

/**
 * The goal in force at the end of `date`: that of the last change on or before it (`changes` are in
 * date order), or, before the first change, the goal the learner had then; without changes, the goal
 * they have now.
 */
function goalOn(date: string, changes: readonly GoalChange[], current: Goal): Goal {
  const first = changes[0];
  if (!first) return current;
  const last = changes.findLast((change) => change.localDate <= date);
  return last ? { unit: last.unit, amount: last.amount } : { unit: first.previousUnit, amount: first.previousAmount };
}

/**
 * Whether a later day of reviews falls on the same calendar day as an earlier one, counted in
 * whichever of their two zones makes them closer (the rule streak() counts days apart by).
 */
function sameDay(earlier: DayPlace, later: DayPlace) {
  return (
    daysBetween(earlier.date, localDate(later.lastAt, earlier.timeZone)) === 0 ||
    daysBetween(localDate(earlier.lastAt, later.timeZone), later.date) === 0
  );
}

const metGoal = (goal: Goal, day: { reviews: number; durationMs: number }) =>
  goal.unit === "reviews" ? day.reviews >= goal.amount : day.durationMs >= goal.amount * 60_000;

/** The review summary: due cards, today's reviews against the goal, and the streak of days it was met. */
export function createSummaries(deps: {
  cards: ReviewRepository;
  settings: Pick<SettingsModule["service"], "reviewSettings" | "goalChanges">;
}) {
  const { cards, settings } = deps;

  /**
   * The learner's days with reviews, oldest first: each with its local date and time zone (those of
   * its last review), its reviews, their duration and its last review. Reviews are taken per local
   * date and zone, and two such groups are one day when, counted in whichever of their zones makes
   * them closer, they fall on the same date (decision 038): reviews before and after a short flight
   * add up to one day, while "3 March" in Kiritimati and "3 March" in Honolulu a day later stay two.
   */
  async function reviewDays(q: Queryable, userId: string): Promise<ReviewDay[]> {
    const groups = await cards.reviewGroups(userId, q);
    const days: ReviewDay[] = [];
    for (const group of groups) {
      const previous = days.at(-1);
      if (previous && sameDay(previous, group)) {
        days[days.length - 1] = {
          ...group,
          reviews: previous.reviews + group.reviews,
          durationMs: previous.durationMs + group.durationMs,
        };
      } else {
        days.push(group);
      }
    }
    return days;
  }

  return {
    /** The summary, read after syncing the deck. `timeZone` is where the learner is now. */
    async summaryOf(q: Queryable, userId: string, at: Date, timeZone?: string): Promise<ReviewSummary> {
      const [goal, days, changes, counts] = await Promise.all([
        settings.reviewSettings(userId, q),
        reviewDays(q, userId),
        settings.goalChanges(userId, q),
        cards.deckCounts(userId, at, q),
      ]);
      const zone = timeZone ?? goal.timeZone;
      const now = { date: localDate(at, zone), timeZone: zone, lastAt: at };
      const last = days.at(-1);
      const todays = last && sameDay(last, now) ? last : { reviews: 0, durationMs: 0 };
      // Today is judged by the goal set now, a past day by the goal in force at its end.
      const goalDays: GoalDay[] = days
        .filter((day) => metGoal(day === todays ? goal : goalOn(day.date, changes, goal), day))
        .map((day) => ({ date: day.date, timeZone: day.timeZone, metAt: day.lastAt }));
      return {
        due: counts?.due ?? 0,
        nextDueAt: counts?.next ? counts.next.toISOString() : null,
        deckSize: counts?.deck ?? 0,
        today: { reviews: todays.reviews, minutes: Math.round(todays.durationMs / 6_000) / 10 },
        goal: { unit: goal.unit, amount: goal.amount },
        goalMet: metGoal(goal, todays),
        streak: streak(goalDays, at, zone),
        timeZone: zone,
      };
    },
  };
}

export type Summaries = ReturnType<typeof createSummaries>;
