import { describe, expect, it } from "vitest";
import type { Availability } from "#course/bookings";
import { openSlots, overlaps, timeIn } from "./slots";

const london = (overrides: Partial<Availability> = {}): Availability => ({
  timeZone: "Europe/London",
  sessionMinutes: 30,
  noticeHours: 12,
  horizonDays: 28,
  weekly: [{ weekday: 1, ranges: [{ start: "09:00", end: "10:00" }] }],
  exceptions: [],
  ...overrides,
});

const starts = (slots: { startsAt: Date }[]) => slots.map((slot) => slot.startsAt.toISOString());
const on = (date: string, slots: { startsAt: Date }[]) => starts(slots).filter((start) => start.startsWith(date));

describe("open slots from a tutor's weekly hours", () => {
  it("cuts each range into back-to-back sessions of the tutor's length, in the tutor's zone", () => {
    const slots = openSlots(london(), new Date("2026-01-01T00:00:00Z"));
    // Mondays in January: London is on GMT, so 09:00 there is 09:00 UTC.
    expect(starts(slots).slice(0, 4)).toEqual([
      "2026-01-05T09:00:00.000Z",
      "2026-01-05T09:30:00.000Z",
      "2026-01-12T09:00:00.000Z",
      "2026-01-12T09:30:00.000Z",
    ]);
    expect(slots.every((slot) => slot.endsAt.getTime() - slot.startsAt.getTime() === 30 * 60_000)).toBe(true);
  });

  it("keeps a London tutor's 09:00 at 09:00 in London across the week the clocks go forward, and moves it for a Kuala Lumpur learner", () => {
    // British Summer Time starts at 01:00 UTC on Sunday 29 March 2026.
    const slots = openSlots(london({ noticeHours: 1 }), new Date("2026-03-20T00:00:00Z"));
    expect(on("2026-03-23", slots)).toEqual(["2026-03-23T09:00:00.000Z", "2026-03-23T09:30:00.000Z"]);
    expect(on("2026-03-30", slots)).toEqual(["2026-03-30T08:00:00.000Z", "2026-03-30T08:30:00.000Z"]);
    const monday = slots.find((slot) => slot.startsAt.toISOString() === "2026-03-23T09:00:00.000Z")!;
    const nextMonday = slots.find((slot) => slot.startsAt.toISOString() === "2026-03-30T08:00:00.000Z")!;
    expect(timeIn(monday.startsAt, "Europe/London")).toBe("Mon, 23 Mar 2026, 09:00 (Europe/London)");
    expect(timeIn(monday.startsAt, "Asia/Kuala_Lumpur")).toBe("Mon, 23 Mar 2026, 17:00 (Asia/Kuala Lumpur)");
    expect(timeIn(nextMonday.startsAt, "Europe/London")).toBe("Mon, 30 Mar 2026, 09:00 (Europe/London)");
    expect(timeIn(nextMonday.startsAt, "Asia/Kuala_Lumpur")).toBe("Mon, 30 Mar 2026, 16:00 (Asia/Kuala Lumpur)");
  });

  it("moves it back the week the clocks go back", () => {
    // British Summer Time ends at 01:00 UTC on Sunday 25 October 2026.
    const slots = openSlots(london({ noticeHours: 1 }), new Date("2026-10-15T00:00:00Z"));
    expect(on("2026-10-19", slots)).toEqual(["2026-10-19T08:00:00.000Z", "2026-10-19T08:30:00.000Z"]);
    expect(on("2026-10-26", slots)).toEqual(["2026-10-26T09:00:00.000Z", "2026-10-26T09:30:00.000Z"]);
    expect(timeIn(new Date("2026-10-26T09:00:00Z"), "Asia/Kuala_Lumpur")).toBe(
      "Mon, 26 Oct 2026, 17:00 (Asia/Kuala Lumpur)",
    );
  });

  it("runs a range over the night the clocks change in real time: an hour shorter in spring, longer in autumn", () => {
    const night = { weekly: [{ weekday: 7 as const, ranges: [{ start: "00:30", end: "02:30" }] }], noticeHours: 1 };
    // 00:30 GMT to 02:30 BST is one hour; the clocks skip 01:00 to 02:00.
    const spring = openSlots(london(night), new Date("2026-03-27T00:00:00Z"));
    expect(on("2026-03-29", spring)).toEqual(["2026-03-29T00:30:00.000Z", "2026-03-29T01:00:00.000Z"]);
    // 00:30 BST (23:30 UTC the day before) to 02:30 GMT is three hours; 01:00 to 02:00 happens twice.
    const autumn = openSlots(london(night), new Date("2026-10-23T00:00:00Z"));
    const sundayNight = starts(autumn).filter((start) => start >= "2026-10-24T23" && start < "2026-10-25T03");
    expect(sundayNight).toEqual([
      "2026-10-24T23:30:00.000Z",
      "2026-10-25T00:00:00.000Z",
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T01:00:00.000Z",
      "2026-10-25T01:30:00.000Z",
      "2026-10-25T02:00:00.000Z",
    ]);
  });

  it("reads a time the clocks skip as the same time after the change", () => {
    const skipped = { weekly: [{ weekday: 7 as const, ranges: [{ start: "01:30", end: "03:00" }] }], noticeHours: 1 };
    // 01:30 does not exist in London on 29 March 2026: the range starts at 02:30 BST (01:30 UTC).
    const slots = openSlots(london(skipped), new Date("2026-03-27T00:00:00Z"));
    expect(on("2026-03-29", slots)).toEqual(["2026-03-29T01:30:00.000Z"]);
  });

  it("takes several ranges a day, and a range to midnight", () => {
    const slots = openSlots(
      london({
        weekly: [
          {
            weekday: 2,
            ranges: [
              { start: "08:00", end: "08:30" },
              { start: "12:00", end: "13:00" },
              { start: "23:30", end: "24:00" },
            ],
          },
        ],
      }),
      new Date("2026-01-01T00:00:00Z"),
    );
    expect(on("2026-01-06", slots)).toEqual([
      "2026-01-06T08:00:00.000Z",
      "2026-01-06T12:00:00.000Z",
      "2026-01-06T12:30:00.000Z",
      "2026-01-06T23:30:00.000Z",
    ]);
  });

  it("leaves a date off out, and adds a date's extra hours, joined with the week's where they overlap", () => {
    const slots = openSlots(
      london({
        exceptions: [
          { date: "2026-01-12", kind: "off" },
          { date: "2026-01-19", kind: "extra", ranges: [{ start: "09:30", end: "11:00" }] },
          { date: "2026-01-21", kind: "extra", ranges: [{ start: "18:00", end: "18:30" }] },
        ],
      }),
      new Date("2026-01-01T00:00:00Z"),
    );
    expect(on("2026-01-12", slots)).toEqual([]);
    expect(on("2026-01-19", slots)).toEqual([
      "2026-01-19T09:00:00.000Z",
      "2026-01-19T09:30:00.000Z",
      "2026-01-19T10:00:00.000Z",
      "2026-01-19T10:30:00.000Z",
    ]);
    // A Wednesday, when the tutor has no weekly hours.
    expect(on("2026-01-21", slots)).toEqual(["2026-01-21T18:00:00.000Z"]);
    expect(on("2026-01-26", slots)).toHaveLength(2);
  });

  it("starts no sooner than the notice and no later than the horizon", () => {
    // Monday 5 January 2026 at 21:15 UTC: 09:00 on Tuesday would be inside a 12 h notice, Monday's are past.
    const daily = london({
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
        weekday: weekday as 1,
        ranges: [{ start: "09:00", end: "10:00" }],
      })),
      horizonDays: 3,
    });
    const slots = openSlots(daily, new Date("2026-01-05T21:15:00Z"));
    expect(starts(slots)).toEqual([
      "2026-01-06T09:30:00.000Z",
      "2026-01-07T09:00:00.000Z",
      "2026-01-07T09:30:00.000Z",
      "2026-01-08T09:00:00.000Z",
      "2026-01-08T09:30:00.000Z",
    ]);
  });

  it("leaves out every slot that shares time with a booking, aligned or not", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const busy = [
      { startsAt: new Date("2026-01-05T09:00:00Z"), endsAt: new Date("2026-01-05T09:30:00Z") },
      // A time the tutor proposed off their grid: it touches both of the next Monday's slots.
      { startsAt: new Date("2026-01-12T09:15:00Z"), endsAt: new Date("2026-01-12T09:45:00Z") },
    ];
    const slots = openSlots(london(), now, busy);
    expect(on("2026-01-05", slots)).toEqual(["2026-01-05T09:30:00.000Z"]);
    expect(on("2026-01-12", slots)).toEqual([]);
  });

  it("treats a span that ends as another starts as not overlapping, as PostgreSQL's ranges do", () => {
    const a = { startsAt: new Date("2026-01-05T09:00:00Z"), endsAt: new Date("2026-01-05T09:30:00Z") };
    const b = { startsAt: new Date("2026-01-05T09:30:00Z"), endsAt: new Date("2026-01-05T10:00:00Z") };
    expect(overlaps(a, b)).toBe(false);
    expect(overlaps(a, { ...b, startsAt: new Date("2026-01-05T09:29:00Z") })).toBe(true);
  });

  it("makes a Kuala Lumpur tutor's hours, which never change clocks, the same UTC time every week", () => {
    const kl = london({ timeZone: "Asia/Kuala_Lumpur", noticeHours: 1 });
    const slots = openSlots(kl, new Date("2026-03-20T00:00:00Z"));
    expect(on("2026-03-23", slots)).toEqual(["2026-03-23T01:00:00.000Z", "2026-03-23T01:30:00.000Z"]);
    expect(on("2026-03-30", slots)).toEqual(["2026-03-30T01:00:00.000Z", "2026-03-30T01:30:00.000Z"]);
  });
});
