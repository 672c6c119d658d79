import type { Chapter } from "#course/course";
import { givenText } from "#course/review-items";
import { cardId, WEAKEST_LIMIT } from "#course/review-rules";
import { requireAccount, type Staff, unlessUserVanished } from "#server/db/accounts";
import type { Database, Queryable } from "#server/db/client";
import { badRequest } from "#server/http/errors";
import type { AnswersModule } from "#server/modules/answers/answers.module";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { PinNote, PinNotes, PinTarget } from "./pin-notes.repository";
import type { HardestCards, PinResponse, StruggleReport, WeakPhrase } from "./review.contract";
import { type Deck, newCards, phraseKey } from "./review.deck";
import type { CardRow, ReviewRepository } from "./review.repository";
import type { Summaries } from "./review.summary";

/** A card or phrase's weight: wrong answers and lapses count the same. */
function weakness<T extends { lapses: number }>(
  rows: readonly T[],
  wrongs: Map<string, number>,
  keyOf: (row: T) => string,
) {
  return rows
    .map((row) => ({ row, wrong: wrongs.get(keyOf(row)) ?? 0 }))
    .filter(({ row, wrong }) => wrong + row.lapses > 0)
    .sort((a, b) => b.wrong + b.row.lapses - (a.wrong + a.row.lapses));
}

function countBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(keyOf(row), (counts.get(keyOf(row)) ?? 0) + 1);
  return counts;
}

/** What is hardest: a review day's warm-up for the learner, and for staff their struggles and pins. */
export function createStaffReview(deps: {
  db: Database;
  course: readonly Chapter[];
  cards: ReviewRepository;
  deck: Deck;
  summaries: Summaries;
  pinNotes: PinNotes;
  progress: Pick<ProgressModule["service"], "lastActivityAt">;
  answers: Pick<AnswersModule["service"], "lastAnswerAt">;
  now: () => Date;
}) {
  const { db, course, cards, deck, summaries, pinNotes, progress, answers, now } = deps;

  /** The learner's newest review, answer or progress save: their own, never a status a tutor set for them. */
  async function lastActivity(userId: string): Promise<Date | null> {
    const times = (
      await Promise.all([cards.lastReviewedAt(userId), answers.lastAnswerAt(userId), progress.lastActivityAt(userId)])
    ).filter((at): at is Date => at instanceof Date);
    return times.length === 0 ? null : new Date(Math.max(...times.map((at) => at.getTime())));
  }

  return {
    /**
     * A review day's warm-up: up to WEAKEST_LIMIT of the chapter's cards the learner finds hardest
     * (most wrong answers and lapses), due or not. Empty until they have missed one.
     */
    async hardest(userId: string, chapterId: string): Promise<HardestCards> {
      if (!course.some((chapter) => chapter.id === chapterId)) throw badRequest(`There is no chapter "${chapterId}".`);
      const [held, wrongs] = await Promise.all([cards.cards(userId, chapterId), cards.wrongReviews(userId, chapterId)]);
      const byCard = countBy(wrongs, cardId);
      const weakest = weakness(held, byCard, cardId).slice(0, WEAKEST_LIMIT);
      return { cards: deck.toExercises(weakest.map(({ row }) => row)) };
    },

    /** For staff: the learner's weakest phrases, due count, streak and last activity. */
    async struggles(staff: Staff, learnerId: string): Promise<StruggleReport> {
      await requireAccount(db, learnerId, staff);
      const at = now();
      // The summary syncs the learner's deck, so their cards are read after it.
      const summary = await summaries.summaryOf(db, learnerId, at);
      const [held, wrongs, lastAt] = await Promise.all([
        cards.cards(learnerId),
        cards.wrongReviews(learnerId),
        lastActivity(learnerId),
      ]);
      const perPhrase = new Map<string, { key: string; lapses: number; pinned: boolean; row: CardRow }>();
      for (const card of held) {
        const key = phraseKey(card.chapterId, card.dayId, card.phraseId);
        const entry = perPhrase.get(key) ?? { key, lapses: 0, pinned: false, row: card };
        entry.lapses += card.lapses;
        entry.pinned ||= card.pinnedAt !== null;
        perPhrase.set(key, entry);
      }
      const wrongByPhrase = countBy(wrongs, (row) => phraseKey(row.chapterId, row.dayId, row.phraseId));
      const weakest: WeakPhrase[] = weakness([...perPhrase.values()], wrongByPhrase, (entry) => entry.key)
        .flatMap(({ row: entry, wrong }) => {
          const phrase = deck.phraseByKey.get(entry.key);
          if (!phrase) return [];
          const given = new Set<string>();
          for (const row of wrongs) {
            if (phraseKey(row.chapterId, row.dayId, row.phraseId) !== entry.key || given.size === 3) continue;
            given.add(givenText(deck.itemOf(phrase, row.skill), row.given));
          }
          return [
            {
              chapterId: phrase.chapterId,
              dayId: phrase.dayId,
              phraseId: phrase.id,
              dayNumber: phrase.dayNumber,
              malay: phrase.malay,
              english: phrase.english,
              lapses: entry.lapses,
              wrong,
              wrongAnswers: [...given],
              pinned: entry.pinned,
            },
          ];
        })
        .slice(0, WEAKEST_LIMIT);
      return {
        weakest,
        due: summary.due,
        deckSize: summary.deckSize,
        streak: summary.streak,
        lastActivityAt: lastAt ? lastAt.toISOString() : null,
      };
    },

    /**
     * A tutor pins a phrase into the learner's review: each of its cards is due at once, marked
     * "from your tutor", until the learner next reviews it. A phrase not met yet gets its cards now.
     * `q`: a caller's transaction to join (a feedback note and its pin commit together). `note`: what
     * the tutor said of it after hearing it (a take's or a live session's rating), which its spoken
     * card shows while the pin lasts.
     */
    async pin(
      staff: Staff,
      learnerId: string,
      target: PinTarget,
      q: Queryable = db,
      note?: PinNote,
    ): Promise<PinResponse> {
      const phrase = deck.phraseOf(target);
      if (!phrase) {
        throw badRequest(`Day "${target.dayId}" of "${target.chapterId}" has no phrase "${target.phraseId}".`);
      }
      await requireAccount(q, learnerId, staff);
      const at = now();
      await unlessUserVanished(async () => {
        await cards.pinCards(newCards(learnerId, phrase, at), staff.id, at, q);
        // A pin without a note (a feedback note's, a tutor's own) leaves none of an earlier one.
        if (note) await pinNotes.save(q, learnerId, target, note, at);
        else await pinNotes.clear(q, learnerId, target);
      });
      return { pinned: { chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId: phrase.id, malay: phrase.malay } };
    },

    /** Whether the day has this phrase: a feedback note's pin is checked before the note is stored. */
    hasPhrase: (target: PinTarget) => deck.phraseOf(target) !== undefined,
  };
}
