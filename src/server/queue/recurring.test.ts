import { describe, expect, it } from "vitest";
import { cronOf, slotSeconds } from "./recurring";

describe("cronOf", () => {
  it("says whole minutes that divide an hour, hours that divide a day, and a day", () => {
    expect(cronOf(60_000)).toBe("* * * * *");
    expect(cronOf(5 * 60_000)).toBe("*/5 * * * *");
    expect(cronOf(30 * 60_000)).toBe("*/30 * * * *");
    expect(cronOf(60 * 60_000)).toBe("0 */1 * * *");
    expect(cronOf(6 * 60 * 60_000)).toBe("0 */6 * * *");
    expect(cronOf(24 * 60 * 60_000)).toBe("0 0 * * *");
  });

  it("has none for intervals cron cannot keep exactly, which run in throttled slots", () => {
    for (const everyMs of [500, 30_000, 90_000, 7 * 60_000, 45 * 60_000, 5 * 60 * 60_000, 48 * 60 * 60_000, 0]) {
      expect(cronOf(everyMs)).toBeNull();
    }
  });
});

describe("slotSeconds", () => {
  it("is the interval in whole seconds, one at the least", () => {
    expect(slotSeconds(30_000)).toBe(30);
    expect(slotSeconds(1_500)).toBe(2);
    expect(slotSeconds(200)).toBe(1);
  });
});
