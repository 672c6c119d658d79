import { describe, expect, it } from "vitest";
import { parseChapters } from "#course/content-schema";
import { finishedReviewDay, finishedTeachingDay, phrases } from "#tests/fixtures/finished-days";
import { cardReuse, newFormsPerDay, priceItems, quizReach, reuseProblems } from "./course-reuse";

type Card = { id: string; malay: string; english: string; note?: string };

/** A one-chapter course of a teaching day (its cards `cards`) and a review day, parsed. */
function course(cards: Card[], review: Parameters<typeof finishedReviewDay>[0] = { bringsBack: cards }) {
  const vocabulary = cards.map((card) => ({ note: "When to say it.", ...card }));
  return parseChapters([
    {
      file: "chapter-1.json",
      data: {
        id: "chapter-1",
        number: 1,
        title: "The First Steps",
        description: "Kuala Lumpur.",
        days: [finishedTeachingDay({ vocabulary }), finishedReviewDay(review)],
      },
    },
  ]);
}

const eight = phrases(8) as Card[];

describe("how the course brings its cards back (content:check)", () => {
  it("finds a card met again in a later quiz, up to a title, a particle, case and punctuation", () => {
    const cards = [{ id: "terima-kasih", malay: "Terima kasih, pak cik!", english: "Thank you" }, ...eight.slice(1)];
    const chapters = course(cards, {
      bringsBack: [{ id: "tk", malay: "terima kasih lah", english: "Thanks" }, ...eight.slice(1)],
    });
    const reuse = cardReuse(chapters).find((card) => card.id === "terima-kasih")!;
    expect(reuse.uses).toEqual(["day-2 review:task-1 match-the-week"]);
    expect(reuseProblems(chapters)).toEqual([]);
  });

  it("names a card no later day says, and a quiz that reaches under 80% of the chapter's cards", () => {
    // The quiz brings back six of the eight.
    const chapters = course(eight, { bringsBack: eight.slice(0, 6) });
    expect(quizReach(chapters)).toEqual([
      expect.objectContaining({
        dayId: "day-2",
        cards: 8,
        reached: eight.slice(0, 6).map((card) => card.id),
        replyItems: 1,
      }),
    ]);
    expect(reuseProblems(chapters)).toEqual([
      'chapter-1 day-1 vocab-tujuh ("Perkataan tujuh"): no later story line, role-play or practice item says it',
      'chapter-1 day-1 vocab-lapan ("Perkataan lapan"): no later story line, role-play or practice item says it',
      "chapter-1 day-2: its quiz reaches 6 of the chapter's 8 cards; it must reach 7",
    ]);
  });

  it("reads a card with a gap (…) as its words in order, and a card of numbers as any one of them", () => {
    const cards = [
      { id: "ada-tak", malay: "Ada … tak?", english: "Is there …?" },
      { id: "puluh", malay: "Dua puluh, lima puluh", english: "20, 50" },
      ...eight.slice(2),
    ];
    const chapters = course(cards, {
      bringsBack: [
        { id: "durian", malay: "Ada durian tak?", english: "Any durian?" },
        { id: "harga", malay: "Lima puluh sen", english: "Fifty sen" },
        ...eight.slice(2),
      ],
    });
    const uses = Object.fromEntries(cardReuse(chapters).map((card) => [card.id, card.uses]));
    expect(uses["ada-tak"]).toEqual(["day-2 review:task-1 match-the-week"]);
    expect(uses.puluh).toEqual(["day-2 review:task-1 match-the-week"]);
  });

  it("refuses a quiz with no reply item and a chapter with fewer than two prices said in words", () => {
    const chapters = course(eight, { quiz: { items: 12, kinds: 4 } });
    expect(quizReach(chapters)[0]).toMatchObject({ reached: [], replyItems: 0 });
    expect(priceItems(chapters)).toEqual([{ chapterId: "chapter-1", items: [] }]);
    const problems = reuseProblems(chapters);
    expect(problems).toContain("chapter-1 day-2: its quiz has no reply items");
    expect(problems).toContain("chapter-1: 0 items have the learner say a price in Malay words; a chapter needs 2");
    expect(priceItems(course(eight))).toEqual([
      {
        chapterId: "chapter-1",
        items: ["day-2 review:task-1 reply-the-price", "day-2 review:task-1 say-three-ringgit"],
      },
    ]);
  });

  it("counts each day's new word forms, and refuses a first day of more than 10 cards or 40 new forms", () => {
    const forms = newFormsPerDay(course(eight));
    // Day 1: Perkataan and its eight words, Pagi, Kata with sembilan and sepuluh, Frasa. Day 2's
    // dialogue adds kopi and teh; its quiz only asks for what was taught, and is not counted.
    expect(forms).toEqual([
      { chapterId: "chapter-1", dayId: "day-1", forms: 14 },
      { chapterId: "chapter-1", dayId: "day-2", forms: 2 },
    ]);
    const eleven = phrases(11) as Card[];
    expect(reuseProblems(course(eleven, { bringsBack: eleven.slice(0, 8), quiz: { items: 12, kinds: 4 } }))).toContain(
      "chapter-1 day-1: teaches 11 cards; the first day teaches at most 10",
    );
  });
});
