import { describe, expect, it } from "vitest";
import type { ReviewSummary } from "#server/modules/review/review.contract";
import { summaryAfterAnswer } from "./summary-after-answer";

const NOW = Date.parse("2026-11-28T09:00:00Z");
const summary: ReviewSummary = {
  due: 3,
  nextDueAt: "2026-11-29T09:00:00.000Z",
  deckSize: 30,
  today: { reviews: 9, minutes: 2.5 },
  goal: { unit: "reviews", amount: 10 },
  goalMet: false,
  streak: 4,
  timeZone: "Asia/Kuala_Lumpur",
};

describe("summaryAfterAnswer", () => {
  it("takes today from the answer, counts the card off and adds today to the streak when the goal is met", () => {
    const after = summaryAfterAnswer(
      summary,
      { day: { reviews: 10, minutes: 2.8, countedMs: 168_000 }, nextDueAt: "2026-11-28T09:10:00.000Z" },
      NOW,
    );
    expect(after).toEqual({
      ...summary,
      due: 2,
      nextDueAt: "2026-11-28T09:10:00.000Z",
      today: { reviews: 10, minutes: 2.8 },
      goalMet: true,
      streak: 5,
    });
  });

  it("adds nothing to a streak whose today was already met, and keeps a card due again in the count", () => {
    const met = { ...summary, today: { reviews: 12, minutes: 3 }, goalMet: true, streak: 5 };
    const after = summaryAfterAnswer(
      met,
      { day: { reviews: 13, minutes: 3.1, countedMs: 186_000 }, nextDueAt: "2026-11-28T08:59:00.000Z" },
      NOW,
    );
    expect(after.streak).toBe(5);
    expect(after.due).toBe(3);
    expect(after.nextDueAt).toBe(summary.nextDueAt);
  });

  it("judges a minutes goal by the minutes the server counted", () => {
    const minutes = { ...summary, goal: { unit: "minutes" as const, amount: 5 } };
    const short = summaryAfterAnswer(
      minutes,
      { day: { reviews: 30, minutes: 4.9, countedMs: 294_000 }, nextDueAt: summary.nextDueAt! },
      NOW,
    );
    expect(short.goalMet).toBe(false);
    expect(short.streak).toBe(4);
    const long = summaryAfterAnswer(
      minutes,
      { day: { reviews: 31, minutes: 5, countedMs: 300_000 }, nextDueAt: summary.nextDueAt! },
      NOW,
    );
    expect(long.goalMet).toBe(true);
    expect(long.streak).toBe(5);
  });

  it("judges by the exact time counted, as the server does: 299,700 ms shows as 5 minutes and is not five", () => {
    const minutes = { ...summary, goal: { unit: "minutes" as const, amount: 5 } };
    const almost = summaryAfterAnswer(
      minutes,
      { day: { reviews: 30, minutes: 5, countedMs: 299_700 }, nextDueAt: summary.nextDueAt! },
      NOW,
    );
    expect(almost.today.minutes).toBe(5);
    expect(almost.goalMet).toBe(false);
    expect(almost.streak).toBe(4);
  });
});
