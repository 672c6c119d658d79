import { describe, expect, it } from "vitest";
import { newCardRank, newCardsLeft, nextLocalDay, type RoundCandidate, roundOf } from "./review-order";
import { REVIEW_SKILLS, type ReviewSkill } from "./review-rules";

const cardsOf = (phrases: readonly string[], skills: readonly ReviewSkill[], isNew = false): RoundCandidate[] =>
  skills.flatMap((skill) => phrases.map((phrase) => ({ phrase, skill, isNew })));

const neverReviewed = () => null;

/** How many times in a row a card follows one of the same skill. */
const sameSkillInARow = (cards: readonly RoundCandidate[]) =>
  cards.slice(1).filter((card, index) => card.skill === cards[index]!.skill).length;

describe("new cards a day", () => {
  it("leaves the limit less those started today, never below nothing", () => {
    expect(newCardsLeft(15, 0)).toBe(15);
    expect(newCardsLeft(15, 10)).toBe(5);
    expect(newCardsLeft(15, 15)).toBe(0);
    expect(newCardsLeft(5, 9)).toBe(0);
    expect(newCardsLeft(0, 0)).toBe(0);
  });

  it("lets in the first card of every phrase before a second of any, read and heard in turn, then built and said in turn", () => {
    const phrases = ["a", "b", "c", "d"];
    const ranked = cardsOf(phrases, REVIEW_SKILLS)
      .map((card) => ({ ...card, rank: newCardRank(card.skill, phrases.indexOf(card.phrase)) }))
      .sort((x, y) => x.rank - y.rank || phrases.indexOf(x.phrase) - phrases.indexOf(y.phrase));
    expect(ranked.slice(0, 4).map((card) => `${card.phrase}:${card.skill}`)).toEqual([
      "a:recognise",
      "b:listen",
      "c:recognise",
      "d:listen",
    ]);
    expect(ranked.slice(4, 8).map((card) => `${card.phrase}:${card.skill}`)).toEqual([
      "a:listen",
      "b:recognise",
      "c:listen",
      "d:recognise",
    ]);
    // The Malay itself comes last: built or said, the two alternating from phrase to phrase as well.
    expect(ranked.slice(8, 12).map((card) => `${card.phrase}:${card.skill}`)).toEqual([
      "a:recall",
      "b:speak",
      "c:recall",
      "d:speak",
    ]);
    expect(ranked.slice(12).map((card) => `${card.phrase}:${card.skill}`)).toEqual([
      "a:speak",
      "b:recall",
      "c:speak",
      "d:recall",
    ]);
    expect(ranked).toHaveLength(phrases.length * REVIEW_SKILLS.length);
  });
});

describe("a round", () => {
  it("does not serve one skill twenty times in a row when others are due", () => {
    const phrases = Array.from({ length: 20 }, (_, index) => `p${index}`);
    // Twenty meaning cards due first, then twenty listening ones, twenty recall ones and twenty spoken ones.
    const due = cardsOf(phrases, REVIEW_SKILLS);
    const reviewed = roundOf(due, 10, () => "listen");
    expect(reviewed).toHaveLength(10);
    expect(sameSkillInARow(reviewed)).toBe(0);
    expect(new Set(reviewed.map((card) => card.skill))).toEqual(new Set(["recognise", "recall", "speak"]));
    // Never reviewed, the phrases are read and heard in turn; recall and speaking wait for a phrase's second card.
    const fresh = roundOf(
      due.map((card) => ({ ...card, isNew: true })),
      10,
      neverReviewed,
    );
    expect(sameSkillInARow(fresh)).toBe(0);
    expect(new Set(fresh.map((card) => card.skill))).toEqual(new Set(["recognise", "listen"]));
    const lastTime: Record<string, ReviewSkill> = { p0: "recognise", p1: "listen", p2: "recall" };
    const mixed = roundOf(due, 10, (phrase) => lastTime[phrase] ?? "recognise");
    expect(sameSkillInARow(mixed)).toBe(0);
    expect(new Set(mixed.map((card) => card.skill))).toEqual(new Set(REVIEW_SKILLS));
  });

  it("serves one card of a phrase before a second of any, and no two of a phrase in a row", () => {
    const round = roundOf(cardsOf(["a", "b", "c"], REVIEW_SKILLS, true), 5, neverReviewed);
    expect(new Set(round.slice(0, 3).map((card) => card.phrase)).size).toBe(3);
    expect(round.slice(1).every((card, index) => card.phrase !== round[index]!.phrase)).toBe(true);
    // With room, the second cards come too: a round is never shorter than what is due. A phrase
    // never reviewed is asked its meaning before it is asked for the Malay, built or said.
    const single = roundOf(cardsOf(["a"], REVIEW_SKILLS, true), 10, neverReviewed);
    expect(single).toHaveLength(4);
    expect(single.map((card) => card.skill)).toEqual(["recognise", "listen", "recall", "speak"]);
  });

  it("asks a phrase another way than it was last reviewed, when that way is due too", () => {
    const due = cardsOf(["a", "b"], ["recognise", "listen"]);
    const last = (phrase: string): ReviewSkill | null => (phrase === "a" ? "recognise" : "listen");
    const round = roundOf(due, 2, last);
    expect(round).toEqual([
      { phrase: "a", skill: "listen", isNew: false },
      { phrase: "b", skill: "recognise", isNew: false },
    ]);
    // Only the skill it was last reviewed in is due: that one is served.
    const again = { phrase: "a", skill: "recognise", isNew: false } as const;
    expect(roundOf([again], 10, last)).toEqual([again]);
  });

  it("serves a phrase's card already started before its new ones, even in the skill it was last reviewed in", () => {
    const failed = { phrase: "a", skill: "recall", isNew: false } as const;
    const due = [failed, { phrase: "a", skill: "recognise", isNew: true } as const];
    expect(roundOf(due, 1, () => "recall")).toEqual([failed]);
  });

  it("keeps the cards of the first phrases due when the round cannot hold every phrase", () => {
    const due = cardsOf(["a", "b", "c", "d"], ["recognise"]);
    expect(roundOf(due, 2, neverReviewed).map((card) => card.phrase)).toEqual(["a", "b"]);
  });
});

describe("the next local day", () => {
  it("begins at midnight where the learner is", () => {
    expect(nextLocalDay(new Date("2027-03-01T02:00:00Z"), "Asia/Kuala_Lumpur")).toEqual(
      new Date("2027-03-01T16:00:00Z"),
    );
    expect(nextLocalDay(new Date("2027-03-01T15:59:30Z"), "Asia/Kuala_Lumpur")).toEqual(
      new Date("2027-03-01T16:00:00Z"),
    );
    expect(nextLocalDay(new Date("2027-03-01T10:00:00Z"), "Asia/Kolkata")).toEqual(new Date("2027-03-01T18:30:00Z"));
    // The night the clocks go forward in New York (14 March 2027): midnight is still 05:00 UTC that day.
    expect(nextLocalDay(new Date("2027-03-14T12:00:00Z"), "America/New_York")).toEqual(
      new Date("2027-03-15T04:00:00Z"),
    );
  });
});
