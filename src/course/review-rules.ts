import type { ExerciseItem, Given } from "./exercise-schema.ts";

/**
 * What review is made of (docs/decisions/039-review-deck.md): the cards of the phrases a learner has
 * met, one per skill, and the exercise each card asks. Pure and without zod, so the server, the web
 * app and the tests build the same exercise for the same card.
 */

/** A daily goal counts reviews answered, or minutes spent reviewing. */
export const DAILY_GOAL_UNITS = ["reviews", "minutes"] as const;
export type DailyGoalUnit = (typeof DAILY_GOAL_UNITS)[number];

export const DEFAULT_DAILY_GOAL: Record<DailyGoalUnit, number> = { reviews: 20, minutes: 10 };
/** The goals Settings offers, smallest to largest. */
export const DAILY_GOAL_CHOICES: Record<DailyGoalUnit, readonly number[]> = {
  reviews: [5, 10, 20, 30, 50],
  minutes: [5, 10, 15, 20, 30],
};
/** The largest daily goal, in either unit. */
export const MAX_DAILY_GOAL = 500;
/** Where a learner who has not said otherwise is: the course is set in Kuala Lumpur. */
export const DEFAULT_TIME_ZONE = "Asia/Kuala_Lumpur";
/** 7 pm local time: after work, before dinner at the mamak stall. */
export const DEFAULT_REMINDER_HOUR = 19;

/** The cards one review round serves; the page asks for the next round when the learner wants more. */
export const ROUND_SIZE = 10;
/** The phrases a tutor sees as a learner's weakest, and a review day's warm-up draws on. */
export const WEAKEST_LIMIT = 5;
/** The longest a review's recorded duration may be: a card left open longer counts as this. */
export const MAX_REVIEW_MS = 10 * 60_000;

/** The skills a phrase is reviewed in: Malay → meaning, audio → meaning, meaning → the Malay. */
export const REVIEW_SKILLS = ["recognise", "listen", "recall"] as const;
export type ReviewSkill = (typeof REVIEW_SKILLS)[number];

/** A calendar date, "2026-11-24". */
export type LocalDate = string;

/**
 * One date formatter per time zone: making one costs about 100 µs, formatting with it about 1. The
 * zones are canonical names (canonicalTimeZone), so there are a few hundred at most; the cap only
 * guards against a caller passing names that were never checked.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const MAX_DATE_FORMATS = 1000;

/** The calendar date of an instant in a time zone (an IANA name such as "Asia/Kuala_Lumpur"). */
export function localDate(at: Date, timeZone: string): LocalDate {
  let format = dateFormats.get(timeZone);
  if (!format) {
    if (dateFormats.size >= MAX_DATE_FORMATS) dateFormats.clear();
    // en-CA formats as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dateFormats.set(timeZone, format);
  }
  return format.format(at);
}

/** Calendar days from `from` to `to` ("2026-11-24" to "2026-11-26" is 2). */
export function daysBetween(from: LocalDate, to: LocalDate): number {
  const utc = (date: LocalDate) => {
    const [year, month, day] = date.split("-").map(Number) as [number, number, number];
    return Date.UTC(year, month - 1, day);
  };
  return Math.round((utc(to) - utc(from)) / 86_400_000);
}

/** Whether a string names a time zone this runtime knows, in any letter case or by an alias. */
export function isTimeZone(timeZone: string): boolean {
  return canonicalTimeZone(timeZone) !== undefined;
}

/**
 * The runtime's own name for a time zone ("asia/kuala_lumpur" → "Asia/Kuala_Lumpur", "US/Pacific" →
 * "America/Los_Angeles"), or undefined when it knows none. Zones are stored and compared only in
 * this form: a learner cannot make one zone into thousands by spelling it differently.
 */
export function canonicalTimeZone(timeZone: string): string | undefined {
  try {
    return new Intl.DateTimeFormat("en-CA", { timeZone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** A phrase of the course: a vocabulary entry of a day, with its clip. */
export interface Phrase {
  chapterId: string;
  dayId: string;
  dayNumber: number;
  dayTitle: string;
  id: string;
  malay: string;
  english: string;
}

/** Identifies a card: chapter, day, phrase and skill. Ids are slugs, so "/" never occurs in them. */
export interface CardKey {
  chapterId: string;
  dayId: string;
  phraseId: string;
  skill: ReviewSkill;
}

export const cardId = (key: CardKey) => `${key.chapterId}/${key.dayId}/${key.phraseId}/${key.skill}`;

/** The card a cardId names, or null when it is not of that form. */
export function parseCardId(id: string): CardKey | null {
  const parts = id.split("/");
  if (parts.length !== 4 || parts.some((part) => part.length === 0)) return null;
  const [chapterId, dayId, phraseId, skill] = parts as [string, string, string, string];
  if (!(REVIEW_SKILLS as readonly string[]).includes(skill)) return null;
  return { chapterId, dayId, phraseId, skill: skill as ReviewSkill };
}

/** The course's days as review reads them: each with its phrases. */
interface CourseForReview {
  id: string;
  days: readonly {
    id: string;
    number: number;
    subtopic: string;
    vocabulary: readonly { id: string; malay: string; english: string }[];
  }[];
}

/** Every phrase of the course in course order. */
export function coursePhrases(course: readonly CourseForReview[]): Phrase[] {
  return course.flatMap((chapter) =>
    chapter.days.flatMap((day) =>
      day.vocabulary.map((entry) => ({
        chapterId: chapter.id,
        dayId: day.id,
        dayNumber: day.number,
        dayTitle: day.subtopic,
        id: entry.id,
        malay: entry.malay,
        english: entry.english,
      })),
    ),
  );
}

// ------------------------------------------------------------------ exercises

/** A small seeded generator (mulberry32): the same card always draws the same choices, in the same order. */
function random(seedText: string): () => number {
  let seed = 2166136261;
  for (let index = 0; index < seedText.length; index += 1) {
    seed = Math.imul(seed ^ seedText.charCodeAt(index), 16777619);
  }
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

const sameMeaning = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Up to `count` other phrases with a meaning of their own, drawn by `next`: from the phrase's
 * chapter, and from the rest of the course only when the chapter has too few (a short chapter would
 * otherwise ask a choice of one or two meanings, which the exercise kinds do not allow).
 */
function otherPhrases(phrase: Phrase, phrases: readonly Phrase[], count: number, next: () => number): Phrase[] {
  const distinct = phrases.filter(
    (other) => !sameMeaning(other.english, phrase.english) && !sameMeaning(other.malay, phrase.malay),
  );
  const picked: Phrase[] = [];
  const pickFrom = (candidates: readonly Phrase[]) => {
    for (const candidate of shuffled(candidates, next)) {
      if (picked.length === count) return;
      if (picked.some((each) => sameMeaning(each.english, candidate.english))) continue;
      picked.push(candidate);
    }
  };
  pickFrom(distinct.filter((other) => other.chapterId === phrase.chapterId));
  if (picked.length < count) pickFrom(distinct.filter((other) => other.chapterId !== phrase.chapterId));
  return picked;
}

const CHOICE_IDS = ["a", "b", "c", "d"] as const;

/** Words of a phrase as build-the-sentence tiles show them. */
const wordsOf = (malay: string) => malay.split(/\s+/).filter((word) => word.length > 0);

/** A phrase of this many words or more is recalled by building it from tiles; a shorter one is typed. */
export const BUILD_FROM_WORDS = 3;

/**
 * The exercise a card asks, of the engine's kinds (src/course/exercise-schema.ts): recognise is a
 * choice of meanings for the Malay shown; listen, a choice of meanings for the clip; recall, the
 * Malay built from word tiles (three words or more) or typed. Choices and tiles are drawn from the
 * phrase's chapter (the rest of the course makes up a short chapter's), the same for the same card
 * every time, so the server can grade what it served.
 * `audio` names the phrase's clip on its day.
 */
export function reviewItem(phrase: Phrase, skill: ReviewSkill, phrases: readonly Phrase[]): ExerciseItem {
  const next = random(cardId({ chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId: phrase.id, skill }));
  if (skill === "recall") {
    const words = wordsOf(phrase.malay);
    if (words.length < BUILD_FROM_WORDS) {
      return {
        id: skill,
        kind: "type-malay",
        prompt: "Type it in Malay.",
        english: phrase.english,
        answers: [phrase.malay],
        audio: phrase.id,
      };
    }
    const own = new Set(words.map((word) => word.toLowerCase()));
    const extra = otherPhrases(phrase, phrases, 4, next)
      .flatMap((other) => wordsOf(other.malay))
      .filter((word) => !own.has(word.toLowerCase()))
      .slice(0, 2);
    const tiles = [...words, ...extra].map((text, index) => ({ id: `w${index + 1}`, text }));
    return {
      id: skill,
      kind: "build-sentence",
      prompt: "Build it in Malay.",
      english: phrase.english,
      tiles: shuffled(tiles, next),
      answers: [words.map((_, index) => `w${index + 1}`)],
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
export function givenText(item: ExerciseItem, given: Given): string {
  if ("choiceId" in given && "choices" in item) {
    return item.choices.find((choice) => choice.id === given.choiceId)?.text ?? given.choiceId;
  }
  if ("tileIds" in given && item.kind === "build-sentence") {
    return given.tileIds.map((id) => item.tiles.find((tile) => tile.id === id)?.text ?? id).join(" ");
  }
  if ("text" in given) return given.text;
  return JSON.stringify(given);
}
