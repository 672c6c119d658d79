import { type Chapter, courseAudioPath } from "#course/course";
import { reviewItem, reviewQuestionOf } from "#course/review-items";
import { newCardRank } from "#course/review-order";
import {
  type CardKey,
  coursePhrases,
  type Phrase,
  REVIEW_SKILLS,
  servedCardId,
  servedCards,
} from "#course/review-rules";
import { newCard } from "#course/review-schedule";
import { spokenLinePhrases, takeAudioPath } from "#course/speaking";
import type { Queryable } from "#server/db/client";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { PinNote, PinTarget } from "./pin-notes.repository";
import type { ReviewExercise } from "./review.contract";
import type { CardRow, HeldCards, NewCardRow, ReviewRepository } from "./review.repository";

/** The skills whose card comes with the phrase's clip: heard to answer, or the model a take is compared with. */
const HEARD_BEFORE_ANSWER: ReadonlySet<CardKey["skill"]> = new Set(["listen", "speak"]);

export const phraseKey = (chapterId: string, dayId: string, phraseId: string) => `${chapterId}/${dayId}/${phraseId}`;

/** A card met and never reviewed, and not pinned by a tutor: the daily limit on new cards applies to it. */
export const isNewCard = (card: Pick<CardRow, "reps" | "pinnedAt">) => card.reps === 0 && card.pinnedAt === null;

/** A phrase's cards, one per skill, never reviewed and due from when it was met. */
export function newCards(userId: string, phrase: Phrase, metAt: Date): NewCardRow[] {
  const card = newCard(metAt);
  return REVIEW_SKILLS.map((skill) => ({
    userId,
    chapterId: phrase.chapterId,
    dayId: phrase.dayId,
    phraseId: phrase.id,
    skill,
    metAt,
    due: card.due,
    state: card,
  }));
}

/**
 * The deck: the course's phrases, the cards a learner holds of them, and a card as an exercise. A
 * phrase is met once its day's phrase cards or practice set has been started; it then has a card
 * per skill (docs/decisions/039-review-deck.md).
 */
export function createDeck(deps: {
  course: readonly Chapter[];
  cards: ReviewRepository;
  progress: Pick<ProgressModule["service"], "startedTasks">;
}) {
  const { course } = deps;
  const phrases = coursePhrases(course);
  // Lines a tutor may pin after rating a take of one (story lines, role-play phrases): never met as cards.
  const lines = spokenLinePhrases(course);
  const everyPhrase = [...phrases, ...lines];
  // Throws, so the app does not start, when two phrases of a day would share their cards' ids.
  const cardsByServedId = servedCards(everyPhrase);
  const courseOrder = new Map(everyPhrase.map((phrase, index) => [keyOf(phrase), index]));
  return {
    phrases,
    ...createExercises(phrases, lines),

    /**
     * The card a served id (a question's cardId) names, and its phrase; undefined when the course
     * has no such card.
     */
    cardOf: (servedId: string): { key: CardKey; phrase: Phrase } | undefined => cardsByServedId.get(servedId),

    ...createMeetings({ ...deps, meetingTasks: meetingTasksOf(course, phrases) }),
    servingOrder: servingOrderOf(courseOrder),
  };
}

const keyOf = (phrase: Phrase) => phraseKey(phrase.chapterId, phrase.dayId, phrase.id);

/** A card as an exercise: its item, its phrase, its question with a tutor's note. */
function createExercises(phrases: readonly Phrase[], lines: readonly Phrase[]) {
  const phraseByKey = new Map([...phrases, ...lines].map((phrase) => [keyOf(phrase), phrase]));
  const lineKeys = new Set(lines.map(keyOf));

  /**
   * A card's exercise: its choices and tiles drawn from phrases of its own kind (phrase cards, or
   * lines). The draw is seeded by the card, so each card's item is made once and kept.
   */
  const items = new Map<string, ReturnType<typeof reviewItem>>();
  function itemOf(phrase: Phrase, skill: CardKey["skill"]) {
    const key = `${keyOf(phrase)}/${skill}`;
    let item = items.get(key);
    if (!item) {
      item = reviewItem(phrase, skill, lineKeys.has(keyOf(phrase)) ? lines : phrases);
      items.set(key, item);
    }
    return item;
  }

  function phraseOf(key: PinTarget): Phrase | undefined {
    return phraseByKey.get(phraseKey(key.chapterId, key.dayId, key.phraseId));
  }

  /**
   * A card as its question: the exercise without its right answer, under an id that does not name
   * the phrase, and the phrase's clip only when the card is listened to or compared with (a recall
   * card's clip would say the answer; a spoken card is rated by the learner against it). The answer's response gives the right answer and its clip.
   */
  function exercise(
    card: CardKey & { reps: number; pinnedAt: Date | null },
    notes: ReadonlyMap<string, PinNote>,
  ): ReviewExercise | null {
    const phrase = phraseOf(card);
    if (!phrase) return null;
    const note = card.skill === "speak" && card.pinnedAt !== null ? notes.get(keyOf(phrase)) : undefined;
    return {
      cardId: servedCardId(card),
      skill: card.skill,
      item: reviewQuestionOf(itemOf(phrase, card.skill)),
      audio: HEARD_BEFORE_ANSWER.has(card.skill) ? courseAudioPath(phrase.chapterId, phrase.dayId, phrase.id) : null,
      dayNumber: phrase.dayNumber,
      dayTitle: phrase.dayTitle,
      fromTutor: card.pinnedAt !== null,
      tutor: note
        ? {
            rating: note.rating,
            comment: note.comment,
            take: note.takeId ? takeAudioPath(note.takeId) : null,
            line: note.takeId ? { chapterId: phrase.chapterId, dayId: phrase.dayId, lineId: phrase.id } : null,
          }
        : null,
      isNew: card.reps === 0,
    };
  }

  return {
    itemOf,
    phraseOf,
    phraseByKey,

    /** The cards as exercises (a pinned spoken card with its tutor's note), leaving out any whose phrase the course no longer has. */
    toExercises: (rows: readonly CardRow[], notes: ReadonlyMap<string, PinNote> = new Map()) =>
      rows.flatMap((row) => {
        const served = exercise(row, notes);
        return served ? [served] : [];
      }),
  };
}

type MeetingTasks = ReturnType<typeof meetingTasksOf>;

/** Meeting phrases: the cards of the days a learner has met, added when missing. */
function createMeetings({
  cards,
  progress,
  meetingTasks,
}: {
  cards: ReviewRepository;
  progress: Pick<ProgressModule["service"], "startedTasks">;
  meetingTasks: MeetingTasks;
}) {
  /**
   * The sync's write, from what was read of the days started and the cards held: a card per skill
   * of every phrase of a day met and short of cards. Answers whether it added any.
   */
  async function addMissing(
    q: Queryable,
    userId: string,
    at: Date,
    started: readonly { chapterId: string; dayId: string; taskId: string }[],
    held: readonly HeldCards[],
  ): Promise<boolean> {
    const cardsHeld = new Map(held.map((row) => [`${row.chapterId}/${row.dayId}`, row.cards]));
    const metDays = new Set<string>();
    for (const row of started) {
      const key = `${row.chapterId}/${row.dayId}`;
      if (meetingTasks.get(key)?.taskIds.has(row.taskId)) metDays.add(key);
    }
    const missing = [...metDays].filter(
      (key) => (cardsHeld.get(key) ?? 0) < meetingTasks.get(key)!.phrases.length * REVIEW_SKILLS.length,
    );
    if (missing.length === 0) return false;
    const rows = missing.flatMap((key) =>
      meetingTasks.get(key)!.phrases.flatMap((phrase) => newCards(userId, phrase, at)),
    );
    await cards.addCards(rows, q);
    return true;
  }

  return {
    /**
     * Gives the learner a card per skill of every phrase of the days they have met and no card yet,
     * due from `at`. Reads first and writes only for a day short of cards.
     */
    async sync(q: Queryable, userId: string, at: Date): Promise<void> {
      const [started, held] = await Promise.all([progress.startedTasks(userId), cards.cardsPerDay(userId, q)]);
      await addMissing(q, userId, at, started, held);
    },

    addMissing,
  };
}

/** Per day with phrases: the tasks whose start means the learner met them (phrase cards, practice), and its phrases. */
function meetingTasksOf(course: readonly Chapter[], phrases: readonly Phrase[]) {
  const meetingTasks = new Map<string, { chapterId: string; dayId: string; taskIds: Set<string>; phrases: Phrase[] }>();
  for (const chapter of course) {
    for (const day of chapter.days) {
      if (day.vocabulary.length === 0) continue;
      const taskIds = new Set<string>();
      for (const block of day.codebook?.blocks ?? []) {
        if (block.type === "vocabulary-cards" || block.type === "practice") taskIds.add(block.task.id);
      }
      meetingTasks.set(`${chapter.id}/${day.id}`, {
        chapterId: chapter.id,
        dayId: day.id,
        taskIds,
        phrases: phrases.filter((phrase) => phrase.chapterId === chapter.id && phrase.dayId === day.id),
      });
    }
  }
  return meetingTasks;
}

/**
 * The order due cards are taken in: pinned by a tutor first (their spoken cards before the rest), then cards already reviewed (those
 * being learnt come back first, being due soonest), then new ones, oldest met first (the order
 * the daily limit lets them in: decision 055), the first card of every phrase met together before
 * the second of any (newCardRank), in course order. The same deck is always taken in the same order.
 * Pinned cards, and started cards due at the same moment, go skill by skill in course order.
 */
function servingOrderOf(courseOrder: ReadonlyMap<string, number>) {
  return (a: CardRow & { metAt: Date }, b: CardRow & { metAt: Date }): number => {
    const pinned = Number(a.pinnedAt === null) - Number(b.pinnedAt === null);
    if (pinned !== 0) return pinned;
    // A tutor's pins are asked aloud first: what they heard comes back as something to say.
    const spoken =
      Number(b.pinnedAt !== null && b.skill === "speak") - Number(a.pinnedAt !== null && a.skill === "speak");
    if (spoken !== 0) return spoken;
    const fresh = Number(a.reps === 0) - Number(b.reps === 0);
    if (fresh !== 0) return fresh;
    const due = a.reps > 0 ? a.due.getTime() - b.due.getTime() : a.metAt.getTime() - b.metAt.getTime();
    if (due !== 0) return due;
    const orderA = courseOrder.get(phraseKey(a.chapterId, a.dayId, a.phraseId)) ?? 0;
    const orderB = courseOrder.get(phraseKey(b.chapterId, b.dayId, b.phraseId)) ?? 0;
    if (isNewCard(a) && isNewCard(b)) {
      return newCardRank(a.skill, orderA) - newCardRank(b.skill, orderB) || orderA - orderB;
    }
    // Pinned cards, and cards due at the same moment: each skill across the phrases in course order.
    return REVIEW_SKILLS.indexOf(a.skill) - REVIEW_SKILLS.indexOf(b.skill) || orderA - orderB;
  };
}

export type Deck = ReturnType<typeof createDeck>;
