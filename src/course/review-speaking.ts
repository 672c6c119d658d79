import type { Grade, Graded } from "./grading";
import type { Phrase } from "./review-rules";
import { SELF_RATINGS, type SelfRating } from "./speaking";

/**
 * A spoken review card (docs/decisions/069-speaking-in-review.md): the English is shown, the learner
 * says the Malay (recorded, or aloud without a microphone, or in their head when they cannot speak
 * now), then hears the model beside their take and says how close it was. Nothing grades a voice
 * here: the learner's own rating is the answer, and it moves the card as a review's rating does.
 * The Malay and its clip come with the question, as the learner compares against them.
 */
export interface SpeakItem {
  id: "speak";
  kind: "say-malay";
  prompt: string;
  english: string;
  /** The phrase, shown once the learner has said it. */
  malay: string;
  /** The phrase's clip on its day: the model the learner compares against. */
  audio: string;
  /** The phrase's card note, shown with the Malay. */
  explain?: string;
}

export const speakItem = (phrase: Phrase): SpeakItem => ({
  id: "speak",
  kind: "say-malay",
  prompt: "Say it in Malay.",
  english: phrase.english,
  malay: phrase.malay,
  audio: phrase.id,
});

/** A spoken card's answer: how close the learner's Malay was to the model, as they heard it. */
export interface SpokenGiven {
  selfRating: SelfRating;
}

/**
 * What a self-rating counts as: Again is a miss (the card comes back soon), Close a right answer
 * rated Hard, Good a right answer rated Good, or Easy when the learner knew it instantly.
 */
export function spokenRating(given: SpokenGiven, easy: boolean): { grade: Grade; rating: 1 | 2 | 3 | 4 } {
  switch (given.selfRating) {
    case "again":
      return { grade: "wrong", rating: 1 };
    case "close":
      return { grade: "almost", rating: 2 };
    case "good":
      return { grade: "right", rating: easy ? 4 : 3 };
  }
}

/** A spoken card's grade, with the right answer feedback shows: the Malay, its clip and its note. */
export function gradeSpoken(item: SpeakItem, given: SpokenGiven, easy: boolean): Graded & { rating: 1 | 2 | 3 | 4 } {
  const { grade, rating } = spokenRating(given, easy);
  return {
    grade,
    rating,
    typo: false,
    slip: null,
    correct: {
      text: item.malay,
      answer: { text: item.malay },
      audioId: item.audio,
      explain: item.explain ?? null,
      accepted: [],
    },
  };
}

/** Whether an answer is a spoken card's: `{ selfRating }` with one of the ratings. */
export const isSpokenGiven = (given: object): given is SpokenGiven =>
  "selfRating" in given && (SELF_RATINGS as readonly unknown[]).includes(given.selfRating);
