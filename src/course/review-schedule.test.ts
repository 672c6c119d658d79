import { Rating } from "ts-fsrs";
import { describe, expect, it } from "vitest";
import { canonicalTimeZone } from "./review-rules";
import {
  daysBetween,
  type GoalDay,
  isCardDue,
  isDue,
  isTimeZone,
  localDate,
  newCard,
  type ReviewEvent,
  ratingFor,
  rebuildCard,
  review,
  SLOW_ANSWER_MS,
  streak,
} from "./review-schedule";

const at = (iso: string) => new Date(iso);
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe("ratingFor", () => {
  const answer = { grade: "right", hinted: false, durationMs: 4_000, easy: false } as const;

  it("rates a wrong answer Again, even one the learner calls easy", () => {
    expect(ratingFor({ ...answer, grade: "wrong" })).toBe(Rating.Again);
    expect(ratingFor({ ...answer, grade: "wrong", easy: true })).toBe(Rating.Again);
  });

  it("rates a right answer Good, and Easy only when the learner says so", () => {
    expect(ratingFor(answer)).toBe(Rating.Good);
    expect(ratingFor({ ...answer, durationMs: 500 })).toBe(Rating.Good);
    expect(ratingFor({ ...answer, easy: true })).toBe(Rating.Easy);
  });

  it("rates Hard a right answer after a hint, a slow one, and a near miss", () => {
    expect(ratingFor({ ...answer, hinted: true })).toBe(Rating.Hard);
    expect(ratingFor({ ...answer, durationMs: SLOW_ANSWER_MS + 1 })).toBe(Rating.Hard);
    expect(ratingFor({ ...answer, durationMs: SLOW_ANSWER_MS })).toBe(Rating.Good);
    expect(ratingFor({ ...answer, grade: "almost" })).toBe(Rating.Hard);
    expect(ratingFor({ ...answer, hinted: true, easy: true })).toBe(Rating.Hard);
  });
});

describe("scheduling on a fake clock", () => {
  const met = at("2026-11-24T01:00:00Z");

  it("makes a phrase due as soon as it is met", () => {
    const card = newCard(met);
    expect(isDue(card, met)).toBe(true);
    expect(isDue(card, new Date(met.getTime() - 1))).toBe(false);
  });

  it("serves a card once due, or at once while a tutor has it pinned", () => {
    const due = review(newCard(met), Rating.Good, met).due;
    const before = new Date(due.getTime() - 1);
    expect(isCardDue({ due, pinnedAt: null }, before)).toBe(false);
    expect(isCardDue({ due, pinnedAt: null }, due)).toBe(true);
    expect(isCardDue({ due, pinnedAt: met }, before)).toBe(true);
  });

  it("brings a new card back in short steps, then by days once it is known", () => {
    const first = review(newCard(met), Rating.Good, met);
    expect(first.due.getTime() - met.getTime()).toBe(10 * MINUTE);
    const again = review(newCard(met), Rating.Again, met);
    expect(again.due.getTime() - met.getTime()).toBe(MINUTE);
    const second = review(first, Rating.Good, first.due);
    expect(second.due.getTime() - first.due.getTime()).toBeGreaterThanOrEqual(DAY);
  });

  it("brings a card back sooner after a wrong answer than after a right one, and counts the lapse", () => {
    const learnt = review(review(newCard(met), Rating.Good, met), Rating.Good, at("2026-11-24T01:10:00Z"));
    const later = learnt.due;
    const right = review(learnt, Rating.Good, later);
    const wrong = review(learnt, Rating.Again, later);
    const hard = review(learnt, Rating.Hard, later);
    expect(wrong.due.getTime()).toBeLessThan(hard.due.getTime());
    expect(hard.due.getTime()).toBeLessThan(right.due.getTime());
    expect(wrong.lapses).toBe(1);
    expect(right.lapses).toBe(0);
  });

  it("rebuilds a card from its log whatever order the rows arrived in", () => {
    const events: ReviewEvent[] = [
      { clientId: "b", rating: Rating.Good, reviewedAt: at("2026-11-24T01:00:00Z") },
      { clientId: "c", rating: Rating.Good, reviewedAt: at("2026-11-24T01:10:00Z") },
      { clientId: "d", rating: Rating.Again, reviewedAt: at("2026-11-26T09:00:00Z") },
      { clientId: "e", rating: Rating.Good, reviewedAt: at("2026-11-26T09:10:00Z") },
    ];
    const inOrder = events.reduce((card, event) => review(card, event.rating, event.reviewedAt), newCard(met));
    expect(rebuildCard(met, events)).toEqual(inOrder);
    expect(rebuildCard(met, [...events].reverse())).toEqual(inOrder);
    expect(rebuildCard(met, [events[2]!, events[0]!, events[3]!, events[1]!])).toEqual(inOrder);
    expect(inOrder.reps).toBe(4);
    expect(inOrder.lapses).toBe(1);
  });

  it("orders two reviews of the same instant by their client ids", () => {
    const same = at("2026-11-24T01:00:00Z");
    const good: ReviewEvent = { clientId: "a", rating: Rating.Good, reviewedAt: same };
    const again: ReviewEvent = { clientId: "b", rating: Rating.Again, reviewedAt: same };
    expect(rebuildCard(met, [again, good])).toEqual(rebuildCard(met, [good, again]));
  });
});

describe("local dates", () => {
  it("names the date where the learner is", () => {
    const evening = at("2026-11-24T20:00:00Z");
    expect(localDate(evening, "Europe/London")).toBe("2026-11-24");
    expect(localDate(evening, "Asia/Kuala_Lumpur")).toBe("2026-11-25");
    expect(localDate(evening, "America/Los_Angeles")).toBe("2026-11-24");
  });

  it("follows a daylight-saving change: London's clocks go forward on 2026-03-29 at 01:00 UTC", () => {
    expect(localDate(at("2026-03-28T23:30:00Z"), "Europe/London")).toBe("2026-03-28");
    expect(localDate(at("2026-03-29T22:30:00Z"), "Europe/London")).toBe("2026-03-29");
    // 23:30 UTC is 00:30 the next day in summer time.
    expect(localDate(at("2026-03-29T23:30:00Z"), "Europe/London")).toBe("2026-03-30");
  });

  it("names a zone in the runtime's own spelling whatever its case or alias, and nothing for an unknown one", () => {
    for (const spelling of ["Asia/Kuala_Lumpur", "asia/kuala_lumpur", "ASIA/KUALA_LUMPUR", "aSiA/kUaLa_LuMpUr"]) {
      expect(canonicalTimeZone(spelling)).toBe("Asia/Kuala_Lumpur");
    }
    expect(canonicalTimeZone("us/pacific")).toBe(canonicalTimeZone("America/Los_Angeles"));
    expect(canonicalTimeZone("etc/gmt+12")).toBe("Etc/GMT+12");
    expect(canonicalTimeZone("Mars/Olympus")).toBeUndefined();
    expect(canonicalTimeZone("")).toBeUndefined();
  });

  it("counts calendar days and knows the time zones", () => {
    expect(daysBetween("2026-11-24", "2026-11-26")).toBe(2);
    expect(daysBetween("2026-02-28", "2026-03-01")).toBe(1);
    expect(daysBetween("2026-12-31", "2027-01-01")).toBe(1);
    expect(isTimeZone("Asia/Kuala_Lumpur")).toBe(true);
    expect(isTimeZone("Asia/Nowhere")).toBe(false);
  });
});

describe("streak", () => {
  const KL = "Asia/Kuala_Lumpur";
  const day = (date: string, time: string, timeZone = KL, offset = "+08:00"): GoalDay => ({
    date,
    timeZone,
    metAt: at(`${date}T${time}${offset}`),
  });

  it("counts the days in a row up to today", () => {
    const days = [day("2026-11-22", "08:00"), day("2026-11-23", "21:00"), day("2026-11-24", "07:30")];
    expect(streak(days, at("2026-11-24T12:00:00+08:00"), KL)).toBe(3);
  });

  it("keeps yesterday's streak while today's goal is not met yet, and loses it the day after", () => {
    const days = [day("2026-11-22", "08:00"), day("2026-11-23", "21:00")];
    expect(streak(days, at("2026-11-24T23:59:00+08:00"), KL)).toBe(2);
    expect(streak(days, at("2026-11-25T00:01:00+08:00"), KL)).toBe(0);
    expect(streak([], at("2026-11-25T00:01:00+08:00"), KL)).toBe(0);
  });

  it("starts again after a day missed", () => {
    const days = [day("2026-11-20", "08:00"), day("2026-11-21", "08:00"), day("2026-11-23", "08:00")];
    expect(streak(days, at("2026-11-23T09:00:00+08:00"), KL)).toBe(1);
  });

  it("does not lose a day across London's change to summer time", () => {
    const london = (date: string, utc: string): GoalDay => ({
      date,
      timeZone: "Europe/London",
      metAt: at(utc),
    });
    // 23:30 each evening, local time: 23:30 GMT, then 22:30 UTC once the clocks have gone forward.
    const days = [
      london("2026-03-28", "2026-03-28T23:30:00Z"),
      london("2026-03-29", "2026-03-29T22:30:00Z"),
      london("2026-03-30", "2026-03-30T22:30:00Z"),
    ];
    expect(streak(days, at("2026-03-30T22:45:00Z"), "Europe/London")).toBe(3);
  });

  it("does not lose a day to a flight east that skips a date", () => {
    // Monday 10:00 in London; then Wednesday 08:00 in Tokyo, which is Tuesday 23:00 UTC.
    const days: GoalDay[] = [
      { date: "2026-11-23", timeZone: "Europe/London", metAt: at("2026-11-23T10:00:00Z") },
      { date: "2026-11-25", timeZone: "Asia/Tokyo", metAt: at("2026-11-25T08:00:00+09:00") },
    ];
    expect(streak(days, at("2026-11-25T09:00:00+09:00"), "Asia/Tokyo")).toBe(2);
  });

  it("counts a date lived twice on a flight west once", () => {
    // Tuesday 20:00 in Kuala Lumpur; Tuesday again, 18:00 in London; then Wednesday in London.
    const days: GoalDay[] = [
      day("2026-11-24", "20:00"),
      { date: "2026-11-24", timeZone: "Europe/London", metAt: at("2026-11-24T18:00:00Z") },
      { date: "2026-11-25", timeZone: "Europe/London", metAt: at("2026-11-25T09:00:00Z") },
    ];
    expect(streak(days, at("2026-11-25T10:00:00Z"), "Europe/London")).toBe(2);
  });
});
