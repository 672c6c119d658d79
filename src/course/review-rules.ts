/**
 * What review is made of (docs/decisions/039-review-deck.md): the cards of the phrases a learner has
 * met, one per skill, and when each is due (the exercise a card asks is review-items.ts's). Pure and
 * without zod, so the server, the web app and the tests read the same rules.
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

/**
 * Cards met but never reviewed that enter the due pile per local day, unless the learner sets
 * another number (Anki's "new cards/day"): a learner who meets five days at once is not handed
 * every card of them at once (docs/decisions/055-new-cards-per-day.md).
 */
export const DEFAULT_NEW_CARDS_PER_DAY = 15;
/** The most new cards a day the setting allows; 0 stops new cards. */
export const MAX_NEW_CARDS_PER_DAY = 100;
/** The new cards a day Settings offers. */
export const NEW_CARDS_PER_DAY_CHOICES: readonly number[] = [0, 5, 10, 15, 20, 30, 50, 100];

/** The cards one review round serves; the page asks for the next round when the learner wants more. */
export const ROUND_SIZE = 10;
/** The phrases a tutor sees as a learner's weakest, and a review day's warm-up draws on. */
export const WEAKEST_LIMIT = 5;
/** The longest a review's recorded duration may be: a card left open longer counts as this. */
export const MAX_REVIEW_MS = 10 * 60_000;

/**
 * The server's clock bounds the day a review counts towards (decision 088, amending 045): a review
 * answered offline and sent later counts when it was answered, but never more than this before
 * the server received it (a day without signal, synced the next morning, still counts on its day).
 */
export const REVIEW_COUNT_WINDOW_MS = 24 * 3_600_000;
/** The most one review adds towards a minutes goal, and never more than the server saw pass since the one before. */
export const MAX_COUNTED_REVIEW_MS = 2 * 60_000;
/** How far back a summary reads the learner's days of reviews: a longer streak shows as this many days. */
export const STREAK_WINDOW_DAYS = 400;

/**
 * Whether a day's reviews meet a daily goal: its count of reviews, or its counted time to the
 * millisecond (299,700 ms is not five minutes, though it shows as 5.0). The server's summary and
 * each review answer judge by this one rule; the page shows what they say.
 */
export function goalMetBy(
  goal: { unit: DailyGoalUnit; amount: number },
  day: { reviews: number; countedMs: number },
): boolean {
  return goal.unit === "reviews" ? day.reviews >= goal.amount : day.countedMs >= goal.amount * 60_000;
}

/**
 * The instant a review counts at: when the learner answered, but no earlier than a day before the
 * server received it (REVIEW_COUNT_WINDOW_MS), nor before its card was due (`dueAt`, its met time
 * for a card never reviewed: a card met or due today cannot fill yesterday), and never after it was
 * received (a card answered before it was due, a tutor's pin, counts when it arrived).
 */
export function countedAt(reviewedAt: Date, receivedAt: Date, dueAt: Date | null = null): Date {
  const floor = Math.max(receivedAt.getTime() - REVIEW_COUNT_WINDOW_MS, dueAt?.getTime() ?? -Infinity);
  return new Date(Math.min(receivedAt.getTime(), Math.max(reviewedAt.getTime(), floor)));
}

/**
 * The time a review adds towards a minutes goal: what the learner took, at most
 * MAX_COUNTED_REVIEW_MS, and at most the time since the server received their previous review.
 */
export function countedMs(durationMs: number, receivedAt: Date, previousReceivedAt: Date | null): number {
  const sincePrevious = previousReceivedAt
    ? Math.max(0, receivedAt.getTime() - previousReceivedAt.getTime())
    : Infinity;
  return Math.min(durationMs, MAX_COUNTED_REVIEW_MS, sincePrevious);
}

/**
 * The skills a phrase is reviewed in: Malay → meaning, audio → meaning, meaning → the Malay
 * (built or typed), meaning → the Malay said aloud.
 */
export const REVIEW_SKILLS = ["recognise", "listen", "recall", "speak"] as const;
/** The skills that ask for the Malay itself: a phrase never reviewed is first asked another way. */
export const PRODUCING_SKILLS: readonly ReviewSkill[] = ["recall", "speak"];
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
  /** When and how it is said (the card's note): review's feedback gives it as the reason. */
  note?: string;
  /** Other forms a Malaysian says for it, right in recall (the card's `also`). */
  also?: string[];
}

/** Identifies a card: chapter, day, phrase and skill. Ids are slugs, so "/" never occurs in them. */
export interface CardKey {
  chapterId: string;
  dayId: string;
  phraseId: string;
  skill: ReviewSkill;
}

/**
 * The card's own id, used on the server and to seed its exercise. It names the phrase, whose id is
 * its Malay words: the browser is given servedCardId instead.
 */
export const cardId = (key: CardKey) => `${key.chapterId}/${key.dayId}/${key.phraseId}/${key.skill}`;

/** FNV-1a (32 bits) of a text: the same in every runtime, without node:crypto. */
export function fnv1a(text: string): number {
  let hash = 2166136261;
  for (let index = 0; index < text.length; index += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 16777619);
  }
  return hash >>> 0;
}

/**
 * A short token standing for a phrase among its day's: its id's FNV-1a in base 36. It stays the
 * same while the phrase keeps its id, whatever else of the day changes.
 */
export const phraseToken = (phraseId: string) => fnv1a(phraseId).toString(36);

/**
 * The id a card is served and answered under: its chapter, day, phrase token and skill, so it does
 * not spell the phrase, which a recall card asks for ("chapter-1/day-1/1x2b3c4/recall").
 */
export const servedCardId = (key: CardKey) => `${key.chapterId}/${key.dayId}/${phraseToken(key.phraseId)}/${key.skill}`;

/**
 * Every card of the phrases by its served id, with its card and phrase. Two phrases of a day with
 * the same token would make their cards' ids one: that is refused here, and the phrase has to be
 * renamed.
 */
export function servedCards(phrases: readonly Phrase[]): Map<string, { key: CardKey; phrase: Phrase }> {
  const cards = new Map<string, { key: CardKey; phrase: Phrase }>();
  for (const phrase of phrases) {
    for (const skill of REVIEW_SKILLS) {
      const key = { chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId: phrase.id, skill };
      const id = servedCardId(key);
      const other = cards.get(id);
      if (other) {
        throw new Error(
          `The phrases "${other.phrase.id}" and "${phrase.id}" of ${phrase.chapterId}/${phrase.dayId} have the same ` +
            `review token (${phraseToken(phrase.id)}): rename one of them.`,
        );
      }
      cards.set(id, { key, phrase });
    }
  }
  return cards;
}

/** The course's days as review reads them: each with its phrases. */
interface CourseForReview {
  id: string;
  days: readonly {
    id: string;
    number: number;
    subtopic: string;
    vocabulary: readonly {
      id: string;
      malay: string;
      english: string;
      note?: string | undefined;
      also?: string[] | undefined;
    }[];
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
        ...(entry.note && { note: entry.note }),
        ...(entry.also && { also: entry.also }),
      })),
    ),
  );
}
