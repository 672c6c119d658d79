import { roundOf } from "#course/review-order";
import { ROUND_SIZE } from "#course/review-rules";
import type { Database } from "#server/db/client";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import type { PinNotes } from "./pin-notes.repository";
import { createAnswers } from "./review.answer";
import type { ReviewRound, ReviewSummary } from "./review.contract";
import { type Deck, isNewCard, phraseKey } from "./review.deck";
import { createKnownCards, type KnownCards } from "./review.known";
import type { ReviewRepository } from "./review.repository";
import type { Summaries } from "./review.summary";

interface RoundDeps {
  db: Database;
  cards: ReviewRepository;
  deck: Deck;
  summaries: Summaries;
  pinNotes: PinNotes;
  now: () => Date;
  /** The course's words (taughtWords): a recall that types another of them is wrong, not almost. */
  words: ReadonlySet<string>;
  /** The learner's daily goal and its changes: each answer says where the goal stands after it. */
  settings: Pick<SettingsModule["service"], "reviewSettings">;
}

/**
 * The learner's own review: the summary, the round of due cards, and each answer (review.answer.ts).
 * What this instance remembers of a learner's cards (review.known.ts) passes from a round to its answers.
 */
export function createRounds(deps: RoundDeps) {
  const known = createKnownCards(() => deps.now().getTime());
  return { ...createServing(deps, known), ...createAnswers({ ...deps, known }) };
}

/** The summary and the round of due cards. */
function createServing({ db, cards, deck, summaries, pinNotes, now }: RoundDeps, known: KnownCards) {
  return {
    /** The summary My Journey and the header show. */
    async summary(userId: string, timeZone?: string): Promise<ReviewSummary> {
      return summaries.summaryOf(db, userId, now(), timeZone);
    },

    /**
     * The summary and the next round: up to ROUND_SIZE of the due cards (the new ones among them up
     * to what today's limit leaves, oldest met first): a tutor's pins first, then the others one per
     * phrase before a second and the skills taking turns (roundOf).
     */
    async round(userId: string, timeZone?: string): Promise<ReviewRound> {
      const at = now();
      // The summary syncs the deck, so the round's cards come after it.
      const { summary, newCardsLeft } = await summaries.read(db, userId, at, timeZone);
      const sorted = [...(await cards.roundCards(userId, at))].sort(deck.servingOrder);
      let newOnes = 0;
      const due = sorted.filter((card) => !isNewCard(card) || ++newOnes <= newCardsLeft);
      const lastSkills = new Map(
        due.map((card) => [phraseKey(card.chapterId, card.dayId, card.phraseId), card.phraseLastSkill]),
      );
      // A tutor's pins come first, as pinned; the rest are picked and ordered by roundOf.
      const pinned = due.filter((card) => card.pinnedAt !== null).slice(0, ROUND_SIZE);
      const round = [
        ...pinned,
        ...roundOf(
          due
            .filter((card) => card.pinnedAt === null)
            .map((card) => ({
              card,
              phrase: phraseKey(card.chapterId, card.dayId, card.phraseId),
              skill: card.skill,
              isNew: isNewCard(card),
            })),
          ROUND_SIZE - pinned.length,
          (phrase) => lastSkills.get(phrase) ?? null,
        ).map(({ card }) => card),
      ];
      // The learner is about to answer these: remembered, each answer is one write (review.known.ts).
      if (round[0])
        known.learn(
          userId,
          round[0].learner,
          round.map((card) => [card, card.known] as const),
        );
      // A pinned spoken card shows what its tutor said of the phrase.
      const notes = await pinNotes.of(
        userId,
        round.filter((card) => card.pinnedAt !== null && card.skill === "speak"),
      );
      return { summary, cards: deck.toExercises(round, notes) };
    },
  };
}
