import { describe, expect, it } from "vitest";
import { loadCourse } from "#server/course/content";
import { exerciseQuestionSchema } from "./exercise-schema";
import {
  checkReviewGiven,
  givenText,
  gradeReview,
  metBy,
  reviewItem,
  reviewQuestionOf,
  rightReviewGiven,
  WRITTEN_SKILLS,
} from "./review-items";
import { coursePhrases, type Phrase } from "./review-rules";
import { tileWords } from "./review-tiles";

/** The real course, as the server loads it, without its media (tests/test-app.ts does the same). */
const course = loadCourse({ publicDir: null });
const phrases = coursePhrases(course);
const cards = phrases.flatMap((phrase) => WRITTEN_SKILLS.map((skill) => [phrase, skill] as const));

const dayOf = (phrase: Phrase) => `${phrase.chapterId}/${phrase.dayId}`;
const nameOf = (phrase: Phrase, skill: string) => `${dayOf(phrase)}/${phrase.id} ${skill}`;
/** The course's days in course order, as "chapter/day". */
const days = [...new Set(phrases.map(dayOf))];
/** An answer of the given form, whatever the card. */
const ANSWERED = { hinted: false, durationMs: 3_000, easy: false };

describe("what a learner has met by a card (metBy)", () => {
  it("is the phrases of the card's day and of every day before it in course order", () => {
    for (const phrase of phrases) {
      const met = metBy(phrase, phrases);
      const through = days.indexOf(dayOf(phrase));
      expect(met.map(dayOf), phrase.id).toEqual(
        phrases.filter((other) => days.indexOf(dayOf(other)) <= through).map(dayOf),
      );
      expect(met).toContain(phrase);
    }
    // The first day's phrases have met only that day's; the last day's, the whole course.
    const [first] = phrases;
    expect(metBy(first!, phrases)).toEqual(phrases.filter((other) => dayOf(other) === dayOf(first!)));
    expect(metBy(phrases.at(-1)!, phrases)).toEqual(phrases);
  });

  it("is the whole list for a phrase not among it", () => {
    const elsewhere: Phrase = { ...phrases[0]!, chapterId: "chapter-99", dayId: "day-99", id: "nowhere" };
    expect(metBy(elsewhere, phrases)).toEqual(phrases);
  });
});

describe("a card's wrong choices and extra tiles", () => {
  it("come only from phrases of its day and the days before it", () => {
    for (const [phrase, skill] of cards) {
      const item = reviewItem(phrase, skill, phrases);
      const met = metBy(phrase, phrases);
      if ("choices" in item) {
        const meanings = new Set(met.map((other) => other.english));
        for (const choice of item.choices) expect(meanings.has(choice.text), nameOf(phrase, skill)).toBe(true);
      }
      if (item.kind === "build-sentence") {
        const words = new Set(
          met.flatMap((other) => tileWords(other.malay, phrases)).map((word) => word.toLowerCase()),
        );
        for (const tile of item.tiles) expect(words.has(tile.text.toLowerCase()), nameOf(phrase, skill)).toBe(true);
      }
    }
  });

  it("never offer a chapter-1 day-1 card a meaning first met on day 2 or later", () => {
    const dayOne = phrases.filter((phrase) => phrase.chapterId === "chapter-1" && phrase.dayId === "day-1");
    const dayOneMeanings = new Set(dayOne.map((phrase) => phrase.english));
    // Later days of the chapter have meanings of their own, which a wrong choice drawn from the
    // whole chapter could be.
    const later = phrases.filter(
      (phrase) => phrase.chapterId === "chapter-1" && phrase.dayId !== "day-1" && !dayOneMeanings.has(phrase.english),
    );
    expect(dayOne.length).toBeGreaterThanOrEqual(4);
    expect(later.length).toBeGreaterThan(0);
    for (const phrase of dayOne) {
      for (const skill of ["recognise", "listen"] as const) {
        const item = reviewItem(phrase, skill, phrases);
        if (!("choices" in item)) throw new Error(`${nameOf(phrase, skill)} has no choices`);
        expect(item.choices.length, nameOf(phrase, skill)).toBeGreaterThanOrEqual(3);
        for (const choice of item.choices) {
          expect(dayOneMeanings.has(choice.text), `${nameOf(phrase, skill)}: ${choice.text}`).toBe(true);
        }
      }
    }
  });
});

describe("a spoken card", () => {
  const noted = phrases.find((phrase) => phrase.note)!;
  /** A phrase without a note (every phrase of the course has one). */
  const plain: Phrase = {
    chapterId: noted.chapterId,
    dayId: noted.dayId,
    dayNumber: noted.dayNumber,
    dayTitle: noted.dayTitle,
    id: noted.id,
    malay: noted.malay,
    english: noted.english,
  };

  it("shows the English and asks for the Malay said aloud, with the Malay and the model's clip to compare", () => {
    expect(reviewItem(plain, "speak", phrases)).toEqual({
      id: "speak",
      kind: "say-malay",
      prompt: "Say it in Malay.",
      english: plain.english,
      malay: plain.malay,
      audio: plain.id,
    });
    const item = reviewItem(noted, "speak", phrases);
    expect(item).toMatchObject({ kind: "say-malay", english: noted.english, malay: noted.malay, explain: noted.note });
    // Served, it keeps the Malay and the clip (the learner compares against them), not the note.
    const question = reviewQuestionOf(item);
    expect(question).toEqual({
      id: "speak",
      kind: "say-malay",
      prompt: "Say it in Malay.",
      english: noted.english,
      malay: noted.malay,
      audio: noted.id,
    });
    expect(exerciseQuestionSchema.parse(question)).toEqual(question);
  });

  it("is answered by the learner's own rating: Again a miss, Close almost (Hard), Good right (Good, or Easy)", () => {
    const item = reviewItem(noted, "speak", phrases);
    const graded = (selfRating: "again" | "close" | "good", easy = false) =>
      gradeReview(item, { selfRating }, { ...ANSWERED, easy }, {});
    expect([graded("again"), graded("close"), graded("good"), graded("good", true)]).toEqual(
      [
        ["wrong", 1],
        ["almost", 2],
        ["right", 3],
        ["right", 4],
      ].map(([grade, rating]) => ({
        grade,
        rating,
        typo: false,
        slip: null,
        correct: {
          text: noted.malay,
          answer: { text: noted.malay },
          audioId: noted.id,
          explain: noted.note,
          accepted: [],
        },
      })),
    );
    // A miss called easy is still a miss.
    expect(graded("again", true)).toMatchObject({ grade: "wrong", rating: 1 });
    expect(
      gradeReview(reviewItem(plain, "speak", phrases), { selfRating: "good" }, ANSWERED, {}).correct,
    ).toMatchObject({ explain: null });
    expect(rightReviewGiven(item)).toEqual({ selfRating: "good" });
    expect(givenText(item, { selfRating: "close" })).toBe("Said aloud, rated “Close”");
  });

  it("takes only a self-rating, and a written card never takes one", () => {
    const spoken = reviewItem(noted, "speak", phrases);
    for (const selfRating of ["again", "close", "good"] as const) {
      expect(checkReviewGiven(spoken, { selfRating })).toEqual([]);
    }
    for (const written of [{ text: noted.malay }, { choiceId: "a" }, { tileIds: ["t1", "t2"] }]) {
      expect(checkReviewGiven(spoken, written)).toEqual([expect.objectContaining({ path: "given" })]);
    }
    for (const skill of WRITTEN_SKILLS) {
      const item = reviewItem(noted, skill, phrases);
      expect(checkReviewGiven(item, { selfRating: "good" }), skill).toEqual([
        expect.objectContaining({ path: "given" }),
      ]);
      expect(checkReviewGiven(item, rightReviewGiven(item)), skill).toEqual([]);
    }
  });
});
