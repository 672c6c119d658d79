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
  it("takes today, the goal met and the streak from the answer, and counts the card off", () => {
    const after = summaryAfterAnswer(
      summary,
      {
        day: { reviews: 10, minutes: 2.8, countedMs: 168_000 },
        nextDueAt: "2026-11-28T09:10:00.000Z",
        goalMet: true,
        streak: 5,
      },
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

  it("shows the server's streak, never its own: 7 from the answer though the summary said 3 with the goal already met", () => {
    const met = { ...summary, today: { reviews: 12, minutes: 3 }, goalMet: true, streak: 3 };
    const after = summaryAfterAnswer(
      met,
      {
        day: { reviews: 13, minutes: 3.1, countedMs: 186_000 },
        nextDueAt: summary.nextDueAt!,
        goalMet: true,
        streak: 7,
      },
      NOW,
    );
    expect(after.goalMet).toBe(true);
    expect(after.streak).toBe(7);
  });

  it("shows the goal unmet when the answer says so, whatever today's figures would suggest to the page", () => {
    // A minutes goal of 5: 299,700 ms shows as 5.0 minutes, and the server judged it not met.
    const minutes = { ...summary, goal: { unit: "minutes" as const, amount: 5 } };
    const almost = summaryAfterAnswer(
      minutes,
      {
        day: { reviews: 30, minutes: 5, countedMs: 299_700 },
        nextDueAt: summary.nextDueAt!,
        goalMet: false,
        streak: 4,
      },
      NOW,
    );
    expect(almost.today.minutes).toBe(5);
    expect(almost.goalMet).toBe(false);
    expect(almost.streak).toBe(4);
  });

  it("keeps a card due again in the count, and the earlier next due", () => {
    const after = summaryAfterAnswer(
      summary,
      {
        day: { reviews: 10, minutes: 2.8, countedMs: 168_000 },
        nextDueAt: "2026-11-28T08:59:00.000Z",
        goalMet: true,
        streak: 5,
      },
      NOW,
    );
    expect(after.due).toBe(3);
    expect(after.nextDueAt).toBe(summary.nextDueAt);
  });
});
