import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { daySchema, parseChapters } from "#course/content-schema";
import type { Day } from "#course/course";
import { finishedReviewDay, finishedTeachingDay, MISSION_TYPES, phrases } from "#tests/fixtures/finished-days";
import { courseProblems, dayCounts, dayProblems } from "./course-rules";

const teachingDay = (options: Parameters<typeof finishedTeachingDay>[0] = {}): Day =>
  daySchema.parse(finishedTeachingDay(options));
const reviewDay = (options: Parameters<typeof finishedReviewDay>[0] = {}): Day =>
  daySchema.parse(finishedReviewDay(options));

const teaching = (day: Day) => dayProblems(day, { review: false });
const review = (day: Day) => dayProblems(day, { review: true });

describe("dayProblems of a teaching day", () => {
  it("finds nothing lacking in a finished teaching day, at either end of each range", () => {
    expect(teaching(teachingDay())).toEqual([]);
    expect(teaching(teachingDay({ dialogueLines: 8, vocabulary: phrases(12) }))).toEqual([]);
    expect(teaching(teachingDay({ dialogueLines: 18, vocabulary: phrases(18), rolePlayPhrases: [4, 6] }))).toEqual([]);
  });

  it("counts the dialogue lines: 8 to 18", () => {
    expect(teaching(teachingDay({ dialogueLines: 7 }))).toEqual(["has 7 dialogue lines; a day needs 8 to 18"]);
    expect(teaching(teachingDay({ dialogueLines: 19 }))).toEqual(["has 19 dialogue lines; a day needs 8 to 18"]);
  });

  it("needs narration", () => {
    expect(teaching(teachingDay({ narration: false }))).toEqual(["has no narration"]);
  });

  it("counts the phrases taught: 8 to 18", () => {
    expect(teaching(teachingDay({ vocabulary: phrases(7) }))).toEqual(["teaches 7 phrases; a day teaches 8 to 18"]);
    expect(teaching(teachingDay({ vocabulary: phrases(19) }))).toEqual(["teaches 19 phrases; a day teaches 8 to 18"]);
  });

  it("names each phrase without a note for the back of its card", () => {
    expect(teaching(teachingDay({ vocabulary: phrases(8, { withoutNote: ["vocab-dua", "vocab-lima"] }) }))).toEqual([
      "vocabulary without a note for its card: vocab-dua, vocab-lima",
    ]);
  });

  it.each(["listen-shadow", "video", "vocabulary-cards"] as const)("needs a %s mission in its Codebook", (type) => {
    const missions = MISSION_TYPES.filter((each) => each !== type);
    // Without listen-and-shadow the section is listened to nowhere; the day is still valid content.
    expect(teaching(teachingDay({ missions }))).toEqual([`its Codebook needs a ${type} mission`]);
  });

  it("needs a practice mission, and so practice items", () => {
    expect(teaching(teachingDay({ missions: ["listen-shadow", "video", "vocabulary-cards"] }))).toEqual([
      "its Codebook needs a practice mission",
      "has 0 practice items; a day needs 12 or more",
      "practises 0 kinds of item; a day needs 4 or more",
    ]);
  });

  it("needs its practice set in the Codebook, not elsewhere on the day", () => {
    const day = finishedTeachingDay({ missions: ["listen-shadow", "video", "vocabulary-cards"] });
    const withPracticeInStory = {
      ...day,
      story: {
        ...day.story,
        blocks: [
          ...day.story.blocks,
          {
            type: "practice",
            task: { id: "story:practice", label: "Practise" },
            title: "Practice",
            description: "Answer.",
            items: (daySchema.parse(finishedTeachingDay()).codebook!.blocks.at(-1) as { items: unknown[] }).items,
          },
        ],
      },
    };
    expect(teaching(daySchema.parse(withPracticeInStory))).toEqual(["its Codebook needs a practice mission"]);
  });

  it("needs 12 practice items or more, in 4 kinds or more", () => {
    expect(teaching(teachingDay({ practiceSet: { items: 11, kinds: 4 } }))).toEqual([
      "has 11 practice items; a day needs 12 or more",
    ]);
    expect(teaching(teachingDay({ practiceSet: { items: 12, kinds: 3 } }))).toEqual([
      "practises 3 kinds of item; a day needs 4 or more",
    ]);
  });

  it("needs a live session of two role-plays", () => {
    expect(teaching(teachingDay({ rolePlayPhrases: [4] }))).toEqual(["has 1 role-plays; a live session has 2"]);
    expect(teaching(teachingDay({ rolePlayPhrases: [4, 4, 4] }))).toEqual(["has 3 role-plays; a live session has 2"]);
  });

  it("needs 4 phrases or more in each role-play", () => {
    expect(teaching(teachingDay({ rolePlayPhrases: [4, 3] }))).toEqual(["a role-play has fewer than 4 phrases"]);
  });
});

describe("dayProblems of a review day", () => {
  it("finds nothing lacking in a finished review day, at either end of its dialogue's range", () => {
    expect(review(reviewDay())).toEqual([]);
    expect(review(reviewDay({ dialogueLines: 8 }))).toEqual([]);
    expect(review(reviewDay({ dialogueLines: 18 }))).toEqual([]);
  });

  it("needs its dialogue at natural speed", () => {
    expect(review(reviewDay({ pace: "shadow" }))).toEqual([
      'a review day needs a story section with "pace": "natural"',
    ]);
  });

  it("counts the dialogue lines: 8 to 18", () => {
    expect(review(reviewDay({ dialogueLines: 7 }))).toEqual(["has 7 dialogue lines; a review day needs 8 to 18"]);
    expect(review(reviewDay({ dialogueLines: 19 }))).toEqual(["has 19 dialogue lines; a review day needs 8 to 18"]);
  });

  it("needs a Culture Corner", () => {
    expect(review(reviewDay({ cultureNote: false }))).toEqual([
      "a review day needs a culture note (its Culture Corner)",
    ]);
  });

  it("needs a review quiz of 12 items or more in 4 kinds or more", () => {
    expect(review(reviewDay({ quiz: null }))).toEqual([
      "a review day needs a review quiz (a practice block)",
      "has 0 practice items; a day needs 12 or more",
      "practises 0 kinds of item; a day needs 4 or more",
    ]);
    expect(review(reviewDay({ quiz: { items: 11, kinds: 4 } }))).toEqual([
      "has 11 practice items; a day needs 12 or more",
    ]);
    expect(review(reviewDay({ quiz: { items: 12, kinds: 3 } }))).toEqual([
      "practises 3 kinds of item; a day needs 4 or more",
    ]);
  });

  it("gives the new words of its story a vocabulary-cards mission", () => {
    expect(review(reviewDay({ vocabulary: phrases(1) }))).toEqual([
      "a review day's new words need a vocabulary-cards mission",
    ]);
  });

  it("holds a review day to its own rules, not a teaching day's", () => {
    expect(teaching(reviewDay())).toEqual(
      expect.arrayContaining(["has no narration", "teaches 0 phrases; a day teaches 8 to 18"]),
    );
    expect(review(teachingDay())).toEqual(
      expect.arrayContaining([
        'a review day needs a story section with "pace": "natural"',
        "a review day needs a culture note (its Culture Corner)",
      ]),
    );
  });
});

describe("dayCounts", () => {
  it("counts what a day holds, as the content check prints it", () => {
    expect(dayCounts(teachingDay({ dialogueLines: 9, vocabulary: phrases(10), rolePlayPhrases: [4, 5] }))).toEqual({
      dialogueLines: 9,
      narrationLines: 1,
      vocabulary: 10,
      practiceItems: 12,
      practiceKinds: 4,
      practiceWithoutExplain: 12,
      rolePlayPhrases: [4, 5],
    });
  });

  it("counts the practice items without an explanation", () => {
    const day = finishedTeachingDay();
    const practice = day.codebook.blocks.at(-1) as { items: Record<string, unknown>[] };
    practice.items[0] = { ...practice.items[0], explain: "Nak is the everyday word for want." };
    expect(dayCounts(daySchema.parse(day)).practiceWithoutExplain).toBe(11);
  });
});

describe("courseProblems", () => {
  const chapter = (days: Day[]) => ({
    id: "chapter-1",
    number: 1,
    title: "A chapter",
    description: "A chapter for the test.",
    days: days.map((day, index) => ({ ...day, id: `day-${index + 1}`, number: index + 1 })),
  });

  it("takes a chapter's last day as its review day and every other day as a teaching day", () => {
    expect(courseProblems([chapter([teachingDay(), teachingDay(), reviewDay()])])).toEqual([]);
    expect(courseProblems([chapter([teachingDay(), reviewDay({ cultureNote: false })])])).toEqual([
      "chapter-1 day-2: a review day needs a culture note (its Culture Corner)",
    ]);
  });

  it("names the chapter and the day of each problem", () => {
    expect(courseProblems([chapter([teachingDay({ narration: false }), reviewDay(), teachingDay()])])).toEqual([
      "chapter-1 day-1: has no narration",
      "chapter-1 day-2: has no narration",
      "chapter-1 day-2: teaches 0 phrases; a day teaches 8 to 18",
      "chapter-1 day-2: its Codebook needs a listen-shadow mission",
      "chapter-1 day-2: its Codebook needs a video mission",
      "chapter-1 day-2: its Codebook needs a vocabulary-cards mission",
      // A review day's quiz is on its story page: it is no Codebook practice mission.
      "chapter-1 day-2: its Codebook needs a practice mission",
      "chapter-1 day-2: has 0 role-plays; a live session has 2",
      'chapter-1 day-3: a review day needs a story section with "pace": "natural"',
      "chapter-1 day-3: a review day needs a culture note (its Culture Corner)",
    ]);
  });

  it("finds every day of the real course finished", () => {
    const read = (file: string) => ({ file, data: JSON.parse(readFileSync(file, "utf8")) as unknown });
    const course = parseChapters([read("content/chapter-1.json"), read("content/chapter-2.json")]);
    expect(courseProblems(course)).toEqual([]);
  });
});
