import type { Chapter } from "#course/course";
import { taughtWords } from "#course/taught-words";
import type { Database } from "#server/db/client";
import type { AnswersModule } from "#server/modules/answers/answers.module";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import { createPinNotes } from "./pin-notes.repository";
import { createDeck } from "./review.deck";
import { createReviewRepository } from "./review.repository";
import { createRounds } from "./review.round";
import { createStaffReview } from "./review.staff";
import { createSummaries } from "./review.summary";

export interface ReviewDeps {
  db: Database;
  course: readonly Chapter[];
  /** The learner's daily goal, zone and goal history. */
  settings: Pick<SettingsModule["service"], "reviewSettings">;
  /** The tasks a learner started (which days they met) and their last save. */
  progress: Pick<ProgressModule["service"], "startedTasks" | "startedTasksRead" | "lastActivityAt">;
  answers: Pick<AnswersModule["service"], "lastAnswerAt">;
  /** The clock: tests move it. */
  now?: () => Date;
}

/**
 * Review of what a learner has met (docs/decisions/039-review-deck.md). A phrase is met once its
 * day's phrase cards or practice set has been started; it then has a card per skill. Every review
 * is a row of the log, and the card is rebuilt from its log after each one.
 */
export function createReviewService({ db, course, settings, progress, answers, now = () => new Date() }: ReviewDeps) {
  const cards = createReviewRepository(db);
  const deck = createDeck({ course, cards, progress });
  const summaries = createSummaries({ cards, deck, settings, progress });
  const pinNotes = createPinNotes(db);
  const rounds = createRounds({ db, cards, deck, summaries, pinNotes, now, words: taughtWords(course), settings });
  const staff = createStaffReview({ db, course, cards, deck, summaries, pinNotes, progress, answers, now });

  return {
    summary: rounds.summary,
    round: rounds.round,
    answer: rounds.answer,
    hardest: staff.hardest,
    struggles: staff.struggles,
    pin: staff.pin,
    hasPhrase: staff.hasPhrase,

    /** The learner's review log and cards, for Export My Data. */
    async exportFor(userId: string) {
      const [reviewLog, reviewCards] = await Promise.all([cards.exportLog(userId), cards.exportCards(userId)]);
      return { reviewLog, reviewCards };
    },

    /** Used by the reminders: the deck synced and its due count (as the summary counts it), for one learner. */
    async dueCount(userId: string, at: Date): Promise<number> {
      return (await summaries.summaryOf(db, userId, at)).due;
    },

    /** Whether the learner answered a review on this local date. */
    reviewedOn: (userId: string, date: string): Promise<boolean> => cards.reviewedOn(userId, date),
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;
