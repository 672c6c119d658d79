import { describe, expect, it } from "vitest";
import { nextReviewTime } from "./next-review";

const KL = "Asia/Kuala_Lumpur";
// 22:30 on Wednesday 11 March 2026 in Kuala Lumpur (UTC+8).
const NOW = new Date("2026-03-11T14:30:00Z");

describe("nextReviewTime", () => {
  it("says a time later today in the learner's zone, on a 12-hour clock", () => {
    expect(nextReviewTime("2026-03-11T15:05:00Z", KL, NOW)).toBe("today at 11:05 pm");
  });

  it("says tomorrow for the next calendar day where the learner is, not in UTC", () => {
    // Still 11 March in UTC, already 12 March in Kuala Lumpur.
    expect(nextReviewTime("2026-03-11T16:00:00Z", KL, NOW)).toBe("tomorrow at 12:00 am");
    expect(nextReviewTime("2026-03-12T01:00:00Z", KL, NOW)).toBe("tomorrow at 9:00 am");
  });

  it("names the weekday within the week, and the date beyond it", () => {
    expect(nextReviewTime("2026-03-14T01:00:00Z", KL, NOW)).toBe("on Saturday at 9:00 am");
    expect(nextReviewTime("2026-03-20T01:00:00Z", KL, NOW)).toBe("on Friday 20 March at 9:00 am");
  });

  it("reads the same instant in another zone as that zone's day and time", () => {
    // 09:00 on 12 March in Kuala Lumpur is 01:00 UTC, and 21:00 on 11 March in New York.
    expect(nextReviewTime("2026-03-12T01:00:00Z", "America/New_York", NOW)).toBe("today at 9:00 pm");
  });

  it("says now for a time already past", () => {
    expect(nextReviewTime("2026-03-11T14:29:00Z", KL, NOW)).toBe("now");
  });
});
