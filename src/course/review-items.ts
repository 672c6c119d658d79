import { type ExerciseItem, type ExerciseQuestion, type Given, questionOf } from "./exercise-schema";
import { checkGiven, type GivenIssue, type Graded, type GradeOptions, grade, rightAnswer } from "./grading";
import { cardId, fnv1a, type Phrase, REVIEW_SKILLS, type ReviewSkill } from "./review-rules";
import { type AnsweredReview, ratingFor } from "./review-schedule";
import { gradeSpoken, isSpokenGiven, type SpeakItem, type SpokenGiven, speakItem } from "./review-speaking";
import { tileWords } from "./review-tiles";
import { sameMalay, sameMeaning } from "./same-phrase";
import { SELF_RATING_LABELS } from "./speaking";

/**
 * The exercise a review card asks (docs/decisions/039-review-deck.md), of the engine's kinds, and a
 * spoken card's. Pure and without zod, so the server, the web app and the tests build the same
 * exercise for the same card.
 */

/** A small seeded generator (mulberry32): the same card always draws the same choices, in the same order. */
function random(seedText: string): () => number {
  let seed = fnv1a(seedText);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let value = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffled<T>(values: readonly T[], next: () => number): T[] {
  const result = [...values];
  for (let index = result.length - 1; index > 0; index -= 1) {
    const other = Math.floor(next() * (index + 1));
    [result[index], result[other]] = [result[other]!, result[index]!];
  }
  return result;
}

/**
 * The phrases a learner has met by the time they review `phrase`: those of its day and the days
 * before it in course order (days open in order). All of them for a phrase not among `phrases`.
 */
export function metBy(phrase: Phrase, phrases: readonly Phrase[]): readonly Phrase[] {
  const last = phrases.findLastIndex((other) => other.chapterId === phrase.chapterId && other.dayId === phrase.dayId);
  return last < 0 ? phrases : phrases.slice(0, last + 1);
}

/** A choice of meanings needs this many wrong ones at least (the exercise kinds ask three choices or four). */
const FEWEST_WRONG_CHOICES = 2;

/**
 * Up to `count` other phrases with a meaning of their own, drawn by `next`, from what the learner
 * has met by then (metBy): from the phrase's chapter first, then from earlier chapters. A wrong
 * choice is a phrase the learner has seen; only where they have met too few to make a choice of
 * three (a course whose first day teaches two phrases) do later phrases make up the rest.
 */
function otherPhrases(phrase: Phrase, phrases: readonly Phrase[], count: number, next: () => number): Phrase[] {
  const distinct = (among: readonly Phrase[]) =>
    among.filter((other) => !sameMeaning(other.english, phrase.english) && !sameMalay(other.malay, phrase.malay));
  const picked: Phrase[] = [];
  const pickFrom = (candidates: readonly Phrase[], upTo: number) => {
    for (const candidate of shuffled(candidates, next)) {
      if (picked.length >= upTo) return;
      if (picked.includes(candidate) || picked.some((each) => sameMeaning(each.english, candidate.english))) continue;
      picked.push(candidate);
    }
  };
  const met = distinct(metBy(phrase, phrases));
  pickFrom(
    met.filter((other) => other.chapterId === phrase.chapterId),
    count,
  );
  pickFrom(
    met.filter((other) => other.chapterId !== phrase.chapterId),
    count,
  );
  pickFrom(distinct(phrases), Math.min(count, FEWEST_WRONG_CHOICES));
  return picked;
}

const CHOICE_IDS = ["a", "b", "c", "d"] as const;

/** A phrase of this many words or more is recalled by building it from tiles; a shorter one is typed. */
export const BUILD_FROM_WORDS = 3;

/** The skills whose cards are answered in writing: a choice, tiles or typed text, graded by the engine. */
export type WrittenSkill = Exclude<ReviewSkill, "speak">;
export const WRITTEN_SKILLS = REVIEW_SKILLS.filter((skill): skill is WrittenSkill => skill !== "speak");
/** The engine's kinds a written card asks. */
export type WrittenItem = Extract<
  ExerciseItem,
  { kind: "comprehension" | "listen-choose" | "build-sentence" | "type-malay" }
>;
/** The kinds of exercise a review card asks. */
export type ReviewItem = WrittenItem | SpeakItem;

/**
 * The exercise a card asks, of the engine's kinds (src/course/exercise-schema.ts): recognise is a
 * choice of meanings for the Malay shown; listen, a choice of meanings for the clip; recall, the
 * Malay built from word tiles (three words or more) or typed; speak, the Malay said aloud
 * (review-speaking.ts). Choices and tiles are drawn from what the learner has met (metBy), the same
 * for the same card every time, so the server can grade what it served.
 * `audio` names the phrase's clip on its day; the phrase's note, when it has one, is the item's
 * `explain`, which feedback gives after a miss.
 */
export function reviewItem(phrase: Phrase, skill: WrittenSkill, phrases: readonly Phrase[]): WrittenItem;
export function reviewItem(phrase: Phrase, skill: ReviewSkill, phrases: readonly Phrase[]): ReviewItem;
export function reviewItem(phrase: Phrase, skill: ReviewSkill, phrases: readonly Phrase[]): ReviewItem {
  const item = reviewQuestion(phrase, skill, phrases);
  return phrase.note ? { ...item, explain: phrase.note } : item;
}

function reviewQuestion(phrase: Phrase, skill: ReviewSkill, phrases: readonly Phrase[]): ReviewItem {
  if (skill === "speak") return speakItem(phrase);
  const next = random(cardId({ chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId: phrase.id, skill }));
  if (skill === "recall") {
    const words = tileWords(phrase.malay, phrases);
    if (words.length < BUILD_FROM_WORDS) {
      return {
        id: skill,
        kind: "type-malay",
        prompt: "Type it in Malay.",
        english: phrase.english,
        answers: [phrase.malay, ...(phrase.also ?? [])],
        audio: phrase.id,
      };
    }
    const own = new Set(words.map((word) => word.toLowerCase()));
    const extra = otherPhrases(phrase, phrases, 4, next)
      .flatMap((other) => tileWords(other.malay, phrases))
      .filter((word) => !own.has(word.toLowerCase()))
      .slice(0, 2);
    const drawn = shuffled(
      [...words, ...extra].map((text, index) => ({ index, text })),
      next,
    );
    // Tiles are numbered in the order drawn, not the phrase's: a tile's id must not give its place away.
    const tileId = (index: number) => `t${drawn.findIndex((tile) => tile.index === index) + 1}`;
    return {
      id: skill,
      kind: "build-sentence",
      prompt: "Build it in Malay.",
      english: phrase.english,
      tiles: drawn.map((tile, place) => ({ id: `t${place + 1}`, text: tile.text })),
      answers: [words.map((_, index) => tileId(index))],
      audio: phrase.id,
    };
  }
  const options = shuffled([phrase, ...otherPhrases(phrase, phrases, 3, next)], next);
  // Letters, not phrase ids: a choice's id must not give its phrase away.
  const choices = options.map((option, index) => ({ id: CHOICE_IDS[index]!, text: option.english }));
  const answer = CHOICE_IDS[options.indexOf(phrase)]!;
  if (skill === "listen") {
    return {
      id: skill,
      kind: "listen-choose",
      prompt: "Listen. What does it mean?",
      audio: phrase.id,
      choices,
      answer,
    };
  }
  return {
    id: skill,
    kind: "comprehension",
    prompt: `What does “${phrase.malay}” mean?`,
    choices,
    answer,
    audio: phrase.id,
  };
}

/** What a learner gave, as a tutor reads it: the choice's text, the built words, the typed text. */
export function givenText(item: ExerciseItem | SpeakItem, given: Given | SpokenGiven): string {
  if (isSpokenGiven(given)) return `Said aloud, rated “${SELF_RATING_LABELS[given.selfRating]}”`;
  if ("choiceId" in given && "choices" in item) {
    return item.choices.find((choice) => choice.id === given.choiceId)?.text ?? given.choiceId;
  }
  if ("tileIds" in given && item.kind === "build-sentence") {
    return given.tileIds.map((id) => item.tiles.find((tile) => tile.id === id)?.text ?? id).join(" ");
  }
  if ("text" in given) return given.text;
  return JSON.stringify(given);
}

/** An answer to a review card: the engine's forms for a written card, `{ selfRating }` for a spoken one. */
export type ReviewGiven = Given | SpokenGiven;

/** A card's exercise as its question (questionOf); a spoken card's keeps its Malay and model, as the learner compares. */
export function reviewQuestionOf(item: ReviewItem): ExerciseQuestion {
  if (item.kind !== "say-malay") return questionOf(item);
  const { id, prompt, kind, english, malay, audio } = item;
  return { id, prompt, kind, english, malay, audio };
}

/** Whether `given` answers the card (checkGiven), before anything is stored. */
export function checkReviewGiven(item: ReviewItem, given: ReviewGiven): GivenIssue[] {
  if (item.kind === "say-malay") {
    return isSpokenGiven(given)
      ? []
      : [{ path: "given", message: 'A spoken card is answered with { "selfRating": "again" | "close" | "good" }.' }];
  }
  return isSpokenGiven(given)
    ? [{ path: "given", message: `A ${item.kind} item is not answered with a self-rating.` }]
    : checkGiven(item, given);
}

/**
 * A review's grade and FSRS rating: a written card's by the engine (grade) and ratingFor, a spoken
 * card's by the learner's own rating (gradeSpoken). `given` has passed checkReviewGiven.
 */
export function gradeReview(
  item: ReviewItem,
  given: ReviewGiven,
  answered: Omit<AnsweredReview, "grade" | "slip">,
  options: GradeOptions,
): Graded & { rating: number } {
  if (item.kind === "say-malay") return gradeSpoken(item, given as SpokenGiven, answered.easy);
  const graded = grade(item, given as Given, options);
  return { ...graded, rating: ratingFor({ ...answered, grade: graded.grade, slip: graded.typo }) };
}

/** The answer a card counts right: the engine's right answer, or a spoken card rated Good. */
export const rightReviewGiven = (item: ReviewItem): ReviewGiven =>
  item.kind === "say-malay" ? { selfRating: "good" } : rightAnswer(item).answer;
