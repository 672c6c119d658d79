import { describe, expect, it } from "vitest";
import type { ReviewSummary } from "#server/modules/review/review.contract";
import { untilNextDue } from "./review-due";

const NOW = Date.parse("2026-11-24T10:00:00Z");

function summary(nextDueAt: string | null): ReviewSummary {
  return {
    due: 0,
    nextDueAt,
    deckSize: 6,
    today: { reviews: 0, minutes: 0 },
    goal: { unit: "reviews", amount: 20 },
    goalMet: false,
    streak: 0,
    timeZone: "Asia/Kuala_Lumpur",
  };
}

describe("when the header reads the due count again", () => {
  it("waits until the next card comes due, and a second more", () => {
    expect(untilNextDue(summary("2026-11-24T10:10:00Z"), NOW)).toBe(10 * 60_000 + 1_000);
  });

  it("does not read again while no card is waiting, or before the first read", () => {
    expect(untilNextDue(summary(null), NOW)).toBe(false);
    expect(untilNextDue(undefined, NOW)).toBe(false);
  });

  it("waits at least 30 seconds, so a server clock behind the device's cannot make it ask every second", () => {
    expect(untilNextDue(summary("2026-11-24T09:59:00Z"), NOW)).toBe(30_000);
    expect(untilNextDue(summary("2026-11-24T10:00:05Z"), NOW)).toBe(30_000);
  });

  it("waits at most six hours, well within what a timer can hold", () => {
    expect(untilNextDue(summary("2026-12-30T10:00:00Z"), NOW)).toBe(6 * 3_600_000);
  });
});
