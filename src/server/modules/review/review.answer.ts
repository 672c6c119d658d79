import type { z } from "zod";
import { courseAudioPath } from "#course/course";
import type { Grade, RightAnswer, Slip } from "#course/grading";
import { checkReviewGiven, gradeReview, type ReviewItem } from "#course/review-items";
import { type CardKey, cardId, countedAt, countedMs, type Phrase } from "#course/review-rules";
import {
  cardFromJson,
  localDate,
  type ReviewCard,
  type ReviewEvent,
  rebuildCard,
  review,
} from "#course/review-schedule";
import type { Database } from "#server/db/client";
import { badRequest, HttpError, notFound } from "#server/http/errors";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import type { ReviewAnswerResponse, reviewAnswerRequestSchema } from "./review.contract";
import type { Deck } from "./review.deck";
import type { KnownCards } from "./review.known";
import type { AnswerContext, LoggedReview, ReviewDayRow, ReviewRepository } from "./review.repository";
import { type GoalWithChanges, goalStanding, streakSince } from "./review.summary";

type AnswerInput = z.output<typeof reviewAnswerRequestSchema>;

/** A review may arrive this late (answered offline) and still be logged. */
const LATE_REVIEW_MS = 7 * 24 * 3_600_000;
/** Clocks differ a little: a review stamped up to this far ahead of the server is taken as now. */
const CLOCK_SKEW_MS = 60_000;
/** An in-order review whose card another review changed first is read and tried again this many times. */
const IN_ORDER_TRIES = 3;

/** What answering a review needs: the deck, the cards' repository, what this instance remembers of them. */
interface AnswerDeps {
  db: Database;
  cards: ReviewRepository;
  deck: Deck;
  known: KnownCards;
  now: () => Date;
  /** The course's words (taughtWords): a recall that types another of them is wrong, not almost. */
  words: ReadonlySet<string>;
  /** The learner's daily goal and its changes, lent to the answer's statement: the answer says where the goal stands. */
  settings: Pick<SettingsModule["service"], "reviewSettings">;
}

/** What a review answer grades and logs. */
interface Graded {
  graded: {
    grade: Grade;
    typo: boolean;
    slip: Slip | null;
    correct: Pick<RightAnswer, "text" | "answer" | "explain" | "accepted">;
  };
  rating: number;
  nextDue: Date;
  /** Its day's reviews and counted time after it. */
  day: { reviews: number; countedMs: number };
}

/** Whether today's goal is met and the streak, as the summary would give them right after a review. */
interface Standing {
  goalMet: boolean;
  streak: number;
}

/**
 * The summary's goal and streak (goalStanding) at the server's instant of the answer, in the zone
 * it counted in, from the goal and the learner's days of reviews as they are after it.
 */
function standingOf({ goal, days }: { goal: GoalWithChanges; days: ReviewDayRow[] }, at: Date, zone: string): Standing {
  const { goalMet, streak } = goalStanding(days, goal, at, zone);
  return { goalMet, streak };
}

/**
 * The response to a review: the grade, the right answer, the card's next due, its day so far, and
 * whether the goal is met and the streak after it.
 */
function answerResponse(
  phrase: Phrase,
  { graded, rating, nextDue, day }: Graded,
  { goalMet, streak }: Standing,
): ReviewAnswerResponse {
  return {
    result: graded.grade,
    typo: graded.typo,
    slip: graded.slip,
    correct: {
      text: graded.correct.text,
      answer: graded.correct.answer,
      audio: courseAudioPath(phrase.chapterId, phrase.dayId, phrase.id),
      explain: graded.correct.explain,
      accepted: graded.correct.accepted,
    },
    rating,
    nextDueAt: nextDue.toISOString(),
    day: { reviews: day.reviews, minutes: Math.round(day.countedMs / 6_000) / 10, countedMs: day.countedMs },
    goalMet,
    streak,
  };
}

/** The learner's answers to their review cards (review.round.ts serves the cards). */
export function createAnswers(deps: AnswerDeps) {
  const { deck, cards, known, now, words, settings } = deps;
  const logInOrder = cards.logInOrder(settings.reviewSettings);
  const goalDays = cards.goalDays(settings.reviewSettings);
  /** The goal and the streak after an answer that did not take the in-order way: one more statement. */
  const standingRead = async (userId: string, at: Date, zone: string) =>
    standingOf(await goalDays(userId, streakSince(at)), at, zone);

  /**
   * Grades and logs one review and moves its card on. Refused before anything is written: a card
   * that is not of the course (400), an answer that does not fit it (400), a time in the future or
   * over a week old (400), a card the learner has not met (409 NOT_MET), a clientId already sent
   * for another card (409). A resend logs nothing and answers as the first.
   *
   * An in-order review (the usual one) is two statements, or one for a card this instance
   * remembers from the learner's round (review.known.ts): one reads the card, the account's zone,
   * a review already sent with this clientId and the learner's previous review; one logs it, moves
   * the card one FSRS step from its stored state and adds it to its day, provided the card is still
   * as read, and answers the goal and the learner's days of reviews, from which the answer says
   * whether today's goal is met and the streak, as GET /api/review/summary would right after it in
   * the zone the review counted in. The rest of the summary is not part of the answer: the page
   * asks for it when it needs it. A resend or a review that takes the slow way reads the goal and
   * the days in one statement more.
   */
  async function answer(userId: string, input: AnswerInput): Promise<ReviewAnswerResponse> {
    const at = now();
    const { key, phrase, item, reviewedAt } = checkedAnswer(deck, input, at);

    for (let attempt = 1; ; attempt += 1) {
      const context =
        (attempt === 1 ? knownContext(known, userId, key) : undefined) ??
        (await cards.answerContext(userId, key, input.clientId));
      if (!context) throw notFound("This account no longer exists.");
      if (context.sent_chapter_id !== null) {
        const response = await resent(deps, userId, item, key, context, at);
        return answerResponse(phrase, response, await standingRead(userId, at, context.sent_time_zone!));
      }
      const metAt = context.met_at;
      const timing = {
        at,
        reviewedAt,
        previousReceivedAt: context.previous_received_at,
        dueAt: context.state ? cardFromJson(context.state).due : metAt,
      };
      const inOrder =
        metAt !== null &&
        reviewedAt.getTime() >= metAt.getTime() &&
        (context.last_reviewed_at === null || reviewedAt.getTime() > context.last_reviewed_at.getTime());
      if (!inOrder || attempt > IN_ORDER_TRIES) {
        const done = await logWithRebuild(deps, userId, key, item, input, timing, context.account_zone);
        if (done === "sent") continue;
        return answerResponse(phrase, done, await standingRead(userId, at, done.timeZone));
      }
      const { row, graded } = logRow(userId, key, item, input, timing, context.account_zone, words);
      const next = review(cardFromJson(context.state), row.rating as ReviewEvent["rating"], reviewedAt);
      const read = {
        reps: context.reps!,
        lastReviewedAt: context.last_reviewed_at,
        metAt,
        accountZone: input.timeZone ? null : context.account_zone,
        previousReceivedAt: context.previous_received_at,
      };
      const written = await logInOrder(row, read, next, streakSince(at));
      if (written.logged) {
        known.learn(userId, { accountZone: context.account_zone, previousReceivedAt: at }, [
          [key, { metAt: read.metAt, state: next, reps: next.reps, lastReviewedAt: next.last_review ?? reviewedAt }],
        ]);
        return answerResponse(
          phrase,
          {
            graded,
            rating: row.rating,
            nextDue: next.due,
            day: { reviews: written.dayReviews!, countedMs: written.dayCountedMs! },
          },
          standingOf(written, at, row.timeZone),
        );
      }
      // Another review of the card landed first, or this clientId did, or the zone changed: read again.
      known.forget(userId);
    }
  }

  return { answer };
}

/** The card an answer is for, its exercise and when it was answered; 400 for an answer that cannot be logged. */
function checkedAnswer(deck: Deck, input: AnswerInput, at: Date) {
  const served = deck.cardOf(input.cardId);
  if (!served) throw badRequest(`"${input.cardId}" is not a review card of the course.`);
  const { key, phrase } = served;
  const item = deck.itemOf(phrase, key.skill);
  const issues = checkReviewGiven(item, input.given);
  if (issues.length > 0) throw badRequest("This answer does not fit the card.", issues);
  const reviewedAt = input.reviewedAt ? new Date(input.reviewedAt) : at;
  if (reviewedAt.getTime() > at.getTime() + CLOCK_SKEW_MS) throw badRequest("reviewedAt cannot be in the future.");
  if (reviewedAt.getTime() < at.getTime() - LATE_REVIEW_MS) {
    throw badRequest("This review is over a week old and can no longer be recorded.");
  }
  return { key, phrase, item, reviewedAt };
}

/** An answer's context from what this instance remembers (review.known.ts): no resend known. */
function knownContext(known: KnownCards, userId: string, key: CardKey): AnswerContext | undefined {
  const remembered = known.get(userId, key);
  if (!remembered) return undefined;
  const { card } = remembered;
  return {
    account_zone: remembered.accountZone,
    met_at: card.metAt,
    state: card.state,
    reps: card.reps,
    last_reviewed_at: card.lastReviewedAt,
    due: null,
    sent_chapter_id: null,
    sent_day_id: null,
    sent_phrase_id: null,
    sent_skill: null,
    sent_given: null,
    sent_grade: null,
    sent_rating: null,
    sent_local_date: null,
    sent_time_zone: null,
    previous_received_at: remembered.previousReceivedAt,
  };
}

/**
 * A review that cannot take the quick way: its card is missing from the deck (met since the deck
 * was last read, or not at all), or it was answered before the card's last review (sent late), so
 * the card is rebuilt from its whole log. One learner's such reviews take turns.
 */
async function logWithRebuild(
  { db, cards, deck, words }: AnswerDeps,
  userId: string,
  key: CardKey,
  item: ReviewItem,
  input: AnswerInput,
  timing: Timing,
  accountZone: string,
): Promise<(Graded & { timeZone: string }) | "sent"> {
  const { at, reviewedAt } = timing;
  return db.transaction(async (tx) => {
    await cards.lockLearner(tx, userId);
    if (await cards.logOfClient(tx, userId, input.clientId)) return "sent";
    let card = await cards.card(tx, userId, key, { forUpdate: true });
    if (!card) {
      // The day may have been met since the deck was last read (or never read: a review sent
      // straight after the phrase cards were opened). Met by the time of the review at the latest;
      // the day it counts towards is still the server's (countedAt).
      await deck.sync(tx, userId, new Date(Math.min(at.getTime(), reviewedAt.getTime())));
      card = await cards.card(tx, userId, key, { forUpdate: true });
    }
    if (!card) throw new HttpError(409, "NOT_MET", "This phrase is not in your review yet: meet it in its day first.");
    if (reviewedAt.getTime() < card.metAt.getTime()) throw badRequest("reviewedAt is before the phrase was met.");
    // Sent late behind a later review of its card: it counts no earlier than the card was met.
    const { row, graded } = logRow(userId, key, item, input, { ...timing, dueAt: card.metAt }, accountZone, words);
    await cards.addLog(tx, row);
    // The log's ratings were made by ratingFor, so each is one of FSRS's grades.
    const rebuilt: ReviewCard = rebuildCard(card.metAt, await cards.cardEvents(tx, userId, key));
    await cards.saveRebuilt(tx, userId, key, rebuilt, { reviewedAt, localDate: row.localDate });
    const day = await cards.countReview(tx, row);
    return { graded, rating: row.rating, nextDue: rebuilt.due, day, timeZone: row.timeZone };
  });
}

/** A resend of a review already logged: nothing is written, the answer is graded as the first one was. */
async function resent(
  { cards, words }: AnswerDeps,
  userId: string,
  item: ReviewItem,
  key: CardKey,
  context: AnswerContext,
  at: Date,
): Promise<Graded> {
  const sentKey = {
    chapterId: context.sent_chapter_id!,
    dayId: context.sent_day_id!,
    phraseId: context.sent_phrase_id!,
    skill: context.sent_skill as CardKey["skill"],
  };
  if (cardId(sentKey) !== cardId(key)) {
    throw new HttpError(
      409,
      "CLIENT_ID_REUSED",
      "This clientId was already sent with a review of another card. Make a new one for each review.",
    );
  }
  const replayed = gradeReview(
    item,
    context.sent_given!,
    { hinted: false, durationMs: 0, easy: false },
    reviewGrading(words),
  );
  const slipped = context.sent_grade === "right" && replayed.typo;
  return {
    graded: {
      grade: context.sent_grade!,
      typo: slipped,
      slip: slipped ? (replayed.slip ?? null) : null,
      correct: replayed.correct,
    },
    rating: context.sent_rating!,
    nextDue: context.due ?? at,
    day: await cards.dayTotals(userId, context.sent_local_date!, context.sent_time_zone!),
  };
}

/**
 * Review grades as practice does (decision 065): a one-letter slip in a long answer is right and
 * named, unless it makes another word the course teaches; its rating is Hard (ratingFor).
 */
const reviewGrading = (words: ReadonlySet<string>) => ({ forgiveSlips: true, taughtWords: words }) as const;

/** When a review was answered and received, its learner's previous review received, and when its card was due (countedAt). */
interface Timing {
  at: Date;
  reviewedAt: Date;
  previousReceivedAt: Date | null;
  dueAt: Date | null;
}

/** The log row of a review (graded, rated, and dated by the server's clock for its day: countedAt), and its grade with the right answer. */
function logRow(
  userId: string,
  key: CardKey,
  item: ReviewItem,
  input: AnswerInput,
  { at, reviewedAt, previousReceivedAt, dueAt }: Timing,
  accountZone: string,
  words: ReadonlySet<string>,
): { row: LoggedReview; graded: Graded["graded"] } {
  const result = gradeReview(
    item,
    input.given,
    { hinted: input.hinted, durationMs: input.durationMs, easy: input.easy },
    reviewGrading(words),
  );
  const rating = result.rating;
  const timeZone = input.timeZone ?? accountZone;
  const counted = countedAt(reviewedAt, at, dueAt);
  const row: LoggedReview = {
    userId,
    clientId: input.clientId,
    ...key,
    given: input.given,
    grade: result.grade,
    rating,
    hinted: input.hinted,
    durationMs: input.durationMs,
    reviewedAt,
    timeZone,
    localDate: localDate(counted, timeZone),
    receivedAt: at,
    countedAt: counted,
    countedMs: countedMs(input.durationMs, at, previousReceivedAt),
  };
  return {
    row,
    graded: { grade: result.grade, typo: result.typo, slip: result.slip ?? null, correct: result.correct },
  };
}
