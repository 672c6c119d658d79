import { newCardsLeft, nextLocalDay } from "#course/review-order";
import { type DailyGoalUnit, goalMetBy, STREAK_WINDOW_DAYS } from "#course/review-rules";
import { daysBetween, type GoalDay, localDate, streak } from "#course/review-schedule";
import type { Queryable } from "#server/db/client";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import type { ReviewSummary } from "./review.contract";
import type { Deck } from "./review.deck";
import type { ReviewDayRow, ReviewRepository } from "./review.repository";

type DayPlace = Pick<ReviewDayRow, "date" | "timeZone" | "lastAt">;

type Goal = { unit: DailyGoalUnit; amount: number };

type GoalChange = ReturnType<SettingsModule["service"]["reviewSettings"]["read"]>["changes"][number];

/**
 * The goal in force when a past day's last review counted: that of the last change made before it
 * (`changes` are in order), or, before the first change, the goal the learner had then; without
 * changes, the goal they have now. Changes are placed by the instant the server made them, so a
 * change sent with another time zone cannot move onto an earlier day.
 */
function goalAt(at: Date, changes: readonly GoalChange[], current: Goal): Goal {
  const first = changes[0];
  if (!first) return current;
  const last = changes.findLast((change) => change.changedAt.getTime() <= at.getTime());
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
  goalMetBy(goal, { reviews: day.reviews, countedMs: day.durationMs });

/**
 * The learner's days with reviews, oldest first: each with its local date and time zone (those of
 * its last review), its reviews, their counted time and its last review. Reviews are kept per
 * local date and zone, and two such groups are one day when, counted in whichever of their zones
 * makes them closer, they fall on the same date (decision 038): reviews before and after a short
 * flight add up to one day, while "3 March" in Kiritimati and "3 March" in Honolulu a day later
 * stay two.
 */
function mergeDays(groups: readonly ReviewDayRow[]): ReviewDayRow[] {
  const days: ReviewDayRow[] = [];
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

/** The first date of the days the summary reads: a longer streak shows as STREAK_WINDOW_DAYS days. */
export const streakSince = (at: Date) =>
  localDate(new Date(at.getTime() - (STREAK_WINDOW_DAYS + 1) * 86_400_000), "UTC");

/** The goal with its changes, as the settings module lends it (reviewSettings). */
export type GoalWithChanges = Goal & { changes: readonly GoalChange[] };

/**
 * Where the learner stands at `at` in `zone`: today's reviews and counted time, whether today's goal
 * is met and the streak of days it was met, from their days of reviews (oldest last review first,
 * as the summary reads them from `streakSince`). Today is judged by the goal set now, a past day by
 * the goal in force when it ended. The summary and each review answer give these.
 */
export function goalStanding(groups: readonly ReviewDayRow[], goal: GoalWithChanges, at: Date, zone: string) {
  const days = mergeDays(groups);
  const now = { date: localDate(at, zone), timeZone: zone, lastAt: at };
  const last = days.at(-1);
  const today = last && sameDay(last, now) ? last : { reviews: 0, durationMs: 0 };
  const goalDays: GoalDay[] = days
    .filter((day) => metGoal(day === today ? goal : goalAt(day.lastAt, goal.changes, goal), day))
    .map((day) => ({ date: day.date, timeZone: day.timeZone, metAt: day.lastAt }));
  return {
    today: { reviews: today.reviews, durationMs: today.durationMs },
    goalMet: metGoal(goal, today),
    streak: streak(goalDays, at, zone),
  };
}

/**
 * The review summary: due cards, today's reviews against the goal, and the streak of days it was
 * met. One statement reads them all (the goal with its changes and the days started, lent by the
 * settings and progress modules, and the review's own rows), and the deck's sync writes only when
 * a day met is short of cards.
 */
export function createSummaries(deps: {
  cards: ReviewRepository;
  deck: Pick<Deck, "addMissing">;
  settings: Pick<SettingsModule["service"], "reviewSettings">;
  progress: Pick<ProgressModule["service"], "startedTasksRead">;
}) {
  const { cards, deck, settings, progress } = deps;
  const summaryReads = cards.summaryReads([settings.reviewSettings, progress.startedTasksRead] as const);

  /**
   * The summary, with the deck synced first, and how many more new cards may enter the due pile
   * today (the round serves that many at most). `timeZone` is where the learner is now. Reads the
   * last STREAK_WINDOW_DAYS of days: a longer streak shows as that many days.
   */
  async function read(
    q: Queryable,
    userId: string,
    at: Date,
    timeZone?: string,
  ): Promise<{ summary: ReviewSummary; newCardsLeft: number }> {
    const since = streakSince(at);
    let reads = await summaryReads(userId, since, at);
    const [, started] = reads.lent;
    // The sync wrote cards: the statement is read again, so the counts are the deck's as it now is.
    if (await deck.addMissing(q, userId, at, started, reads.held)) reads = await summaryReads(userId, since, at);
    const [goal] = reads.lent;
    const { counts } = reads;
    const zone = timeZone ?? goal.timeZone;
    // New cards enter the due pile up to the day's limit, less those started today (decision 055).
    const left = newCardsLeft(goal.newCardsPerDay, counts.startedOn.get(localDate(at, zone)) ?? 0);
    const newDue = Math.min(counts.newDue, left);
    // Held back today, new cards enter when the learner's next day begins.
    const heldBack = counts.newDue > newDue ? nextLocalDay(at, zone) : null;
    const next =
      heldBack && (counts.next === null || heldBack.getTime() < counts.next.getTime()) ? heldBack : counts.next;
    const { today, goalMet, streak } = goalStanding(reads.days, goal, at, zone);
    return {
      summary: {
        due: counts.startedDue + newDue,
        nextDueAt: next ? next.toISOString() : null,
        deckSize: counts.deck,
        today: { reviews: today.reviews, minutes: Math.round(today.durationMs / 6_000) / 10 },
        goal: { unit: goal.unit, amount: goal.amount },
        goalMet,
        streak,
        timeZone: zone,
      },
      newCardsLeft: left,
    };
  }

  return {
    read,

    /** The summary My Journey, the header and the review page show (read). */
    async summaryOf(q: Queryable, userId: string, at: Date, timeZone?: string): Promise<ReviewSummary> {
      return (await read(q, userId, at, timeZone)).summary;
    },
  };
}

export type Summaries = ReturnType<typeof createSummaries>;
