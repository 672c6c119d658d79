import { type Card, createEmptyCard, fsrs, type Grade, Rating } from "ts-fsrs";
import type { Grade as AnswerGrade } from "./grading";
import { daysBetween, type LocalDate, localDate } from "./review-rules";

export { daysBetween, isTimeZone, type LocalDate, localDate } from "./review-rules";

/**
 * When a phrase comes back for review: FSRS (ts-fsrs) over the learner's answers, and the days that
 * count towards a streak. Pure, with the clock passed in, so the server, the tests and a rebuild from
 * the log all agree.
 */

/**
 * The scheduler: a desired retention of 0.9, and short steps while a card is new or forgotten
 * (again in 1 then 10 minutes) before FSRS spaces it by days. No fuzz: the same answers at the same
 * times always give the same schedule, which a rebuild from the log relies on.
 */
export const scheduler = fsrs({
  request_retention: 0.9,
  maximum_interval: 365,
  enable_fuzz: false,
  enable_short_term: true,
  learning_steps: ["1m", "10m"],
  relearning_steps: ["10m"],
});

/** An answer that took longer than this was recalled slowly: it counts as Hard. */
export const SLOW_ANSWER_MS = 20_000;

export interface AnsweredReview {
  /** How the answer was graded (src/course/grading.ts). */
  grade: AnswerGrade;
  /** Right with a one-letter slip forgiven (grading.ts): known, not yet known well. */
  slip?: boolean;
  /** The learner asked for a hint (the first letters, the audio again) before answering. */
  hinted: boolean;
  /** From showing the card to the answer. */
  durationMs: number;
  /** The learner said it was easy. Only they can: a fast right answer is Good, never Easy on its own. */
  easy: boolean;
}

/**
 * The FSRS rating of an answer: wrong → Again; right but after a hint, slowly, nearly ("almost") or
 * with a one-letter slip forgiven → Hard; right → Good; Easy only when the learner says so (and was right).
 */
export function ratingFor({ grade, slip = false, hinted, durationMs, easy }: AnsweredReview): Grade {
  if (grade === "wrong") return Rating.Again;
  if (grade === "almost" || slip || hinted || durationMs > SLOW_ANSWER_MS) return Rating.Hard;
  return easy ? Rating.Easy : Rating.Good;
}

/** One row of the review log, as a card's state is rebuilt from it. */
export interface ReviewEvent {
  /** Made by the client for the answer: the order of two reviews at the same instant. */
  clientId: string;
  rating: Grade;
  reviewedAt: Date;
}

export type ReviewCard = Card;

/** A card never reviewed: due at once from when the phrase was met. */
export const newCard = (metAt: Date): ReviewCard => createEmptyCard(metAt);

/** The card after one more review. */
export function review(card: ReviewCard, rating: Grade, at: Date): ReviewCard {
  return scheduler.next(card, at, rating).card;
}

/** A card's state as stored (JSON: its dates as ISO strings), as ts-fsrs takes it. */
export function cardFromJson(state: unknown): ReviewCard {
  const card = state as Record<string, unknown>;
  return {
    ...(card as unknown as ReviewCard),
    due: new Date(card.due as string),
    last_review: card.last_review ? new Date(card.last_review as string) : undefined,
  };
}

/**
 * A card's state rebuilt from its log: every review replayed in the order it happened (by
 * `reviewedAt`, then `clientId`), whatever order the rows arrived in.
 */
export function rebuildCard(metAt: Date, events: readonly ReviewEvent[]): ReviewCard {
  const ordered = [...events].sort(
    (a, b) => a.reviewedAt.getTime() - b.reviewedAt.getTime() || a.clientId.localeCompare(b.clientId),
  );
  return ordered.reduce((card, event) => review(card, event.rating, event.reviewedAt), newCard(metAt));
}

export const isDue = (card: Pick<ReviewCard, "due">, now: Date) => card.due.getTime() <= now.getTime();

/**
 * Whether a learner's card comes up for review at `at`: once it is due, or at once while a tutor has
 * its phrase pinned (pinnedAt set). The review module's queries say the same in SQL (isDueAt).
 */
export function isCardDue(card: { due: Date; pinnedAt: Date | null }, at: Date): boolean {
  return card.pinnedAt !== null || isDue(card, at);
}

// ------------------------------------------------------------------ days and streaks

/**
 * A day the learner met their daily goal: the date where they were, its time zone, and the moment
 * the goal was met.
 */
export interface GoalDay {
  date: LocalDate;
  timeZone: string;
  metAt: Date;
}

/**
 * Calendar days from one goal day to a later one, counted in whichever of the two days' time zones
 * makes them closer: a traveller who flies east and skips a date, or west and lives one twice, does
 * not lose a day by it.
 */
function gap(earlier: GoalDay, later: GoalDay): number {
  return Math.min(
    daysBetween(earlier.date, localDate(later.metAt, earlier.timeZone)),
    daysBetween(localDate(earlier.metAt, later.timeZone), later.date),
  );
}

/**
 * The streak: how many days in a row the goal was met, up to today, or up to yesterday while today's
 * goal is not met yet. `timeZone` is where the learner is now.
 */
export function streak(days: readonly GoalDay[], now: Date, timeZone: string): number {
  const ordered = [...days].sort((a, b) => a.metAt.getTime() - b.metAt.getTime());
  const last = ordered.at(-1);
  if (!last || gap(last, { date: localDate(now, timeZone), timeZone, metAt: now }) > 1) return 0;
  let count = 1;
  for (let index = ordered.length - 1; index > 0; index -= 1) {
    const between = gap(ordered[index - 1]!, ordered[index]!);
    if (between > 1) break;
    if (between === 1) count += 1;
  }
  return count;
}
