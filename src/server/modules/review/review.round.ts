import type { z } from "zod";
import { courseAudioPath } from "#course/course";
import type { Given } from "#course/exercise-schema";
import { checkGiven, type Grade, grade } from "#course/grading";
import { cardId, type Phrase, parseCardId, ROUND_SIZE, reviewItem } from "#course/review-rules";
import { localDate, type ReviewCard, ratingFor, rebuildCard } from "#course/review-schedule";
import type { Database } from "#server/db/client";
import { badRequest, HttpError } from "#server/http/errors";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import type { ReviewAnswerResponse, ReviewRound, ReviewSummary, reviewAnswerRequestSchema } from "./review.contract";
import type { Deck } from "./review.deck";
import type { ReviewRepository } from "./review.repository";
import type { Summaries } from "./review.summary";

type AnswerInput = z.output<typeof reviewAnswerRequestSchema>;

/** A review may arrive this late (answered offline) and still be logged. */
const LATE_REVIEW_MS = 7 * 24 * 3_600_000;
/** Clocks differ a little: a review stamped up to this far ahead of the server is taken as now. */
const CLOCK_SKEW_MS = 60_000;

/** The response to a review, read in its transaction: the grade, the right answer, the card's next due. */
function answerResponse(
  phrase: Phrase,
  graded: { grade: Grade; correct: { text: string; answer: Given } },
  rating: number,
  nextDue: Date,
  summary: ReviewSummary,
): ReviewAnswerResponse {
  return {
    result: graded.grade,
    correct: {
      text: graded.correct.text,
      answer: graded.correct.answer,
      audio: courseAudioPath(phrase.chapterId, phrase.dayId, phrase.id),
    },
    rating,
    nextDueAt: nextDue.toISOString(),
    summary,
  };
}

/** The learner's own review: the summary, the round of due cards, and each answer. */
export function createRounds(deps: {
  db: Database;
  cards: ReviewRepository;
  deck: Deck;
  summaries: Summaries;
  settings: Pick<SettingsModule["service"], "reviewSettings">;
  now: () => Date;
}) {
  const { db, cards, deck, summaries, settings, now } = deps;

  return {
    /** The summary My Journey and the header show. */
    async summary(userId: string, timeZone?: string): Promise<ReviewSummary> {
      const at = now();
      await deck.sync(db, userId, at);
      return summaries.summaryOf(db, userId, at, timeZone);
    },

    /** The summary and the next round: up to ROUND_SIZE due cards, in serving order. */
    async round(userId: string, timeZone?: string): Promise<ReviewRound> {
      const at = now();
      await deck.sync(db, userId, at);
      const [summary, due] = await Promise.all([
        summaries.summaryOf(db, userId, at, timeZone),
        cards.dueCards(userId, at),
      ]);
      return { summary, cards: deck.toExercises([...due].sort(deck.servingOrder)).slice(0, ROUND_SIZE) };
    },

    /**
     * Grades and logs one review, then rebuilds the card from its log. Refused before anything is
     * written: a card that is not of the course (400), an answer that does not fit it (400), a time
     * in the future or over a week old (400), a card the learner has not met (409 NOT_MET), a
     * clientId already sent for another card (409). A resend logs nothing and answers as the first.
     */
    async answer(userId: string, input: AnswerInput): Promise<ReviewAnswerResponse> {
      const at = now();
      const key = parseCardId(input.cardId);
      const phrase = key ? deck.phraseOf(key) : undefined;
      if (!key || !phrase) throw badRequest(`"${input.cardId}" is not a review card of the course.`);
      const item = reviewItem(phrase, key.skill, deck.phrases);
      const issues = checkGiven(item, input.given);
      if (issues.length > 0) throw badRequest("This answer does not fit the card.", issues);
      const reviewedAt = input.reviewedAt ? new Date(input.reviewedAt) : at;
      if (reviewedAt.getTime() > at.getTime() + CLOCK_SKEW_MS) throw badRequest("reviewedAt cannot be in the future.");
      if (reviewedAt.getTime() < at.getTime() - LATE_REVIEW_MS) {
        throw badRequest("This review is over a week old and can no longer be recorded.");
      }

      const { graded, rating, nextDue } = await db.transaction(async (tx) => {
        await cards.lockLearner(tx, userId);
        const stored = await cards.logOfClient(tx, userId, input.clientId);
        let card = await cards.card(tx, userId, key);
        if (!card && !stored) {
          // The day may have been met since the deck was last read (or never read: a review sent
          // straight after the phrase cards were opened). Met by the time of the review at the latest.
          await deck.sync(tx, userId, new Date(Math.min(at.getTime(), reviewedAt.getTime())));
          card = await cards.card(tx, userId, key);
        }
        if (stored) {
          if (cardId(stored) !== cardId(key)) {
            throw new HttpError(
              409,
              "CLIENT_ID_REUSED",
              "This clientId was already sent with a review of another card. Make a new one for each review.",
            );
          }
          const replayed = grade(item, stored.given);
          return {
            graded: { grade: stored.grade, correct: replayed.correct },
            rating: stored.rating,
            nextDue: card?.due ?? at,
          };
        }
        if (!card)
          throw new HttpError(409, "NOT_MET", "This phrase is not in your review yet: meet it in its day first.");
        if (reviewedAt.getTime() < card.metAt.getTime()) {
          throw badRequest("reviewedAt is before the phrase was met.");
        }
        const result = grade(item, input.given);
        const rated = ratingFor({
          grade: result.grade,
          hinted: input.hinted,
          durationMs: input.durationMs,
          easy: input.easy,
        });
        const timeZone = input.timeZone ?? (await settings.reviewSettings(userId, tx)).timeZone;
        await cards.addLog(tx, {
          userId,
          clientId: input.clientId,
          ...key,
          given: input.given,
          grade: result.grade,
          rating: rated,
          hinted: input.hinted,
          durationMs: input.durationMs,
          reviewedAt,
          timeZone,
          localDate: localDate(reviewedAt, timeZone),
        });
        // The log's ratings were made by ratingFor, so each is one of FSRS's grades.
        const rebuilt: ReviewCard = rebuildCard(card.metAt, await cards.cardEvents(tx, userId, key));
        await cards.saveRebuilt(tx, userId, key, rebuilt, reviewedAt);
        return { graded: result, rating: rated, nextDue: rebuilt.due };
      });
      const summary = await summaries.summaryOf(db, userId, at, input.timeZone);
      return answerResponse(phrase, graded, rating, nextDue, summary);
    },
  };
}
