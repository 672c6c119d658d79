import { and, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { booking } from "#server/db/schema";
import type { ErrorBody } from "#server/http/errors";
import { bookedMonday, personAs } from "#tests/booked-session";
import { createTestApp } from "#tests/test-app";
import type { BookingView, MoveTimes } from "./bookings.contract";

/**
 * Moving a session to another time as people do (docs/decisions/084-changing-a-time.md): either side
 * asks for one of the tutor's open times, listed for them by the server; the other side accepts or
 * declines; one time asked for at once. Through HTTP on a fake clock, Siti's hours Mondays 09:00-10:00
 * in London (notice 12 hours, 28 days ahead), Alex's session Monday 23 March at 09:00 (GMT).
 */
const t = await createTestApp();
/** Friday 20 March 2026, 00:00 UTC: London is on GMT until Sunday 29 March. */
const START = new Date("2026-03-20T00:00:00.000Z");
let clock = START;
const request = t.requestTo(t.appWith({ now: () => clock }));
beforeEach(() => {
  clock = START;
});

const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;
const viewOf = async (response: Response) => ((await response.json()) as { booking: BookingView }).booking;
const timesFor = (cookie: string, id: string) => request(`/api/bookings/${id}/times`, { cookie });
const ask = (cookie: string, id: string, startsAt: string, reason?: string) =>
  request(`/api/bookings/${id}/propose`, { method: "POST", cookie, json: { startsAt, reason } });
const answer = (cookie: string, id: string, accept: boolean) =>
  request(`/api/bookings/${id}/proposal`, { method: "POST", cookie, json: { accept } });
const mailTo = async (address: string) => (await t.outbox()).filter((mail) => mail.to === address);
const waiting = async (id: string) =>
  (
    await t.db
      .select({ startsAt: booking.startsAt })
      .from(booking)
      .where(and(eq(booking.replacesId, id), eq(booking.status, "proposed")))
  ).map((row) => row.startsAt.toISOString());
const changeCount = async () =>
  (await t.db.execute<{ count: number }>(sql`select count(*)::int as count from booking_change`)).rows[0]!.count;

describe("the open times a session may move to", () => {
  it("are the tutor's free sessions of its length for either side, never its own time, each in the side's zone", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    const forAlex = await timesFor(alex.cookie, session.id);
    expect(forAlex.status, await forAlex.clone().text()).toBe(200);
    const learnerTimes = (await forAlex.json()) as MoveTimes;
    const mine = (await (await request("/api/bookings/mine", { cookie: alex.cookie })).json()) as { timeZone: string };
    expect(learnerTimes.timeZone).toBe(mine.timeZone);
    expect(learnerTimes.sessionMinutes).toBe(30);
    // Four Mondays inside the 28 days, two sessions each (BST from the 29th), the session's own left out.
    expect(learnerTimes.times.map((time) => time.startsAt)).toEqual([
      "2026-03-23T09:30:00.000Z",
      "2026-03-30T08:00:00.000Z",
      "2026-03-30T08:30:00.000Z",
      "2026-04-06T08:00:00.000Z",
      "2026-04-06T08:30:00.000Z",
      "2026-04-13T08:00:00.000Z",
      "2026-04-13T08:30:00.000Z",
    ]);
    expect(learnerTimes.times[0]!.endsAt).toBe("2026-03-23T10:00:00.000Z");

    // Another learner's session takes its time off the list.
    const bea = await personAs(t, "Student", { firstName: "Bea" });
    const beas = await request("/api/bookings/days/chapter-1/day-1", {
      method: "POST",
      cookie: bea.cookie,
      json: { tutorId: siti.id, startsAt: "2026-03-30T08:00:00.000Z" },
    });
    expect(beas.status).toBe(201);
    const tutorTimes = (await (await timesFor(siti.cookie, session.id)).json()) as MoveTimes;
    expect(tutorTimes.timeZone).toBe("Europe/London");
    expect(tutorTimes.times.map((time) => time.startsAt)).not.toContain("2026-03-30T08:00:00.000Z");
    expect(tutorTimes.times).toHaveLength(6);

    // Inside the learner's notice the tutor may still move it: their notice is theirs to waive.
    clock = new Date("2026-03-23T00:00:00.000Z");
    const late = (await (await timesFor(alex.cookie, session.id)).json()) as MoveTimes;
    expect(late.times.map((time) => time.startsAt)).not.toContain("2026-03-23T09:30:00.000Z");
    const lateTutor = (await (await timesFor(siti.cookie, session.id)).json()) as MoveTimes;
    expect(lateTutor.times.map((time) => time.startsAt)).toContain("2026-03-23T09:30:00.000Z");
  });

  it("are the session's sides' only: anyone else finds no session, an Admin is refused", async () => {
    const { session } = await bookedMonday(t, request);
    const stranger = await personAs(t, "Student");
    const otherTutor = await personAs(t, "Tutor");
    const admin = await personAs(t, "Admin");
    expect((await timesFor(stranger.cookie, session.id)).status).toBe(404);
    expect((await timesFor(otherTutor.cookie, session.id)).status).toBe(404);
    const refused = await timesFor(admin.cookie, session.id);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe("Only the session's learner and tutor choose another time for it.");
    expect((await request(`/api/bookings/${session.id}/times`)).status).toBe(401);
  });
});

describe("a learner's request for another time", () => {
  it("holds an open time, tells the tutor, and moves the session when the tutor accepts", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    const asked = await ask(alex.cookie, session.id, "2026-03-30T08:30:00.000Z", "My flight moved.");
    expect(asked.status, await asked.clone().text()).toBe(200);
    expect((await viewOf(asked)).proposal).toEqual({
      startsAt: "2026-03-30T08:30:00.000Z",
      endsAt: "2026-03-30T09:00:00.000Z",
      reason: "My flight moved.",
      by: "learner",
    });
    const toSiti = (await mailTo(siti.email)).at(-1)!;
    expect(toSiti.subject).toBe("New time asked for: Day 1: Arrival and greetings live session");
    expect(toSiti.text).toContain("Alex Tan asks to move your live session for Day 1: Arrival and greetings");
    expect(toSiti.text).toContain("Why: My flight moved.");
    expect(toSiti.text).toContain(`/tutor?session=${session.id}`);
    // The time is held: nobody else can book it while the tutor answers.
    const bea = await personAs(t, "Student", { firstName: "Bea" });
    const beas = await request("/api/bookings/days/chapter-1/day-1", {
      method: "POST",
      cookie: bea.cookie,
      json: { tutorId: siti.id, startsAt: "2026-03-30T08:30:00.000Z" },
    });
    expect(beas.status).toBe(409);

    // The learner does not answer their own request.
    const own = await answer(alex.cookie, session.id, true);
    expect(own.status).toBe(403);
    expect((await errorOf(own)).message).toBe("You asked for this time: your tutor accepts or declines it.");

    const accepted = await answer(siti.cookie, session.id, true);
    expect(accepted.status, await accepted.clone().text()).toBe(200);
    const moved = await viewOf(accepted);
    expect(moved).toMatchObject({ status: "confirmed", startsAt: "2026-03-30T08:30:00.000Z", proposal: null });
    expect(moved.changes.map((change) => [change.kind, change.by])).toEqual([
      ["booked", "Alex Tan"],
      ["requested", "Alex Tan"],
      ["accepted", "You"],
    ]);
    const toAlex = (await mailTo(alex.email)).at(-1)!;
    expect(toAlex.subject).toMatch(/^Moved: Day 1: Arrival and greetings live session, now Mon, 30 Mar 2026/);
    expect(toAlex.text).toContain("You asked for it, and Siti Tan accepted.");
    expect(toAlex.calendar?.content).toContain("SEQUENCE:1");
    expect((await mailTo(siti.email)).at(-1)!.text).toContain("Alex Tan asked for it, and you accepted.");
  });

  it("keeps the session where it was when the tutor declines, and tells the learner", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    expect((await ask(alex.cookie, session.id, "2026-04-06T08:00:00.000Z")).status).toBe(200);
    const declined = await answer(siti.cookie, session.id, false);
    expect(declined.status).toBe(200);
    expect(await viewOf(declined)).toMatchObject({
      id: session.id,
      startsAt: "2026-03-23T09:00:00.000Z",
      proposal: null,
    });
    const toAlex = (await mailTo(alex.email)).at(-1)!;
    expect(toAlex.subject).toBe("New time declined: Day 1: Arrival and greetings live session");
    expect(toAlex.text).toContain("Siti Tan declined moving the session to Mon, 6 Apr 2026");
    expect(await waiting(session.id)).toEqual([]);
  });

  it("is refused, with a clear message and nothing changed, for a time that is not an open time of the tutor", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    const bea = await personAs(t, "Student", { firstName: "Bea" });
    expect(
      (
        await request("/api/bookings/days/chapter-1/day-1", {
          method: "POST",
          cookie: bea.cookie,
          json: { tutorId: siti.id, startsAt: "2026-03-30T08:00:00.000Z" },
        })
      ).status,
    ).toBe(201);
    const before = { changes: await changeCount(), mails: (await mailTo(siti.email)).length };
    const notOpen = {
      code: "REQUEST_NOT_OPEN",
      message: "That time is not one of your tutor's open times for this session. Pick one of the times shown.",
    };
    const cases: [startsAt: string, status: number, error: ErrorBody["error"]][] = [
      // A Tuesday, a Monday at 09:10, a session four weeks past the horizon: not the tutor's open times.
      ["2026-03-24T09:00:00.000Z", 422, notOpen],
      ["2026-03-30T08:10:00.000Z", 422, notOpen],
      ["2026-04-27T08:00:00.000Z", 422, notOpen],
      ["2026-03-19T09:00:00.000Z", 422, expect.objectContaining({ code: "SLOT_PAST" })],
      ["2026-03-23T09:00:00.000Z", 422, expect.objectContaining({ code: "PROPOSAL_SAME_TIME" })],
      // Bea's: the tutor's time is taken.
      [
        "2026-03-30T08:00:00.000Z",
        409,
        { code: "SLOT_TAKEN", message: "Your tutor has another session at that time. Pick another." },
      ],
    ];
    for (const [startsAt, status, error] of cases) {
      const refused = await ask(alex.cookie, session.id, startsAt);
      expect(refused.status, startsAt).toBe(status);
      expect(await errorOf(refused), startsAt).toEqual(error);
    }
    // Inside the tutor's notice: open to the tutor, not to the learner.
    clock = new Date("2026-03-23T00:00:00.000Z");
    const inside = await ask(alex.cookie, session.id, "2026-03-23T09:30:00.000Z");
    expect(await errorOf(inside)).toEqual(notOpen);
    expect(await waiting(session.id)).toEqual([]);
    expect(await changeCount()).toBe(before.changes);
    expect(await mailTo(siti.email)).toHaveLength(before.mails);
  });

  it("is the session's sides' only: anyone else finds nothing to ask or answer", async () => {
    const { alex, session } = await bookedMonday(t, request);
    const stranger = await personAs(t, "Student");
    const otherTutor = await personAs(t, "Tutor");
    for (const cookie of [stranger.cookie, otherTutor.cookie]) {
      expect((await ask(cookie, session.id, "2026-03-30T08:30:00.000Z")).status).toBe(404);
    }
    expect((await ask(alex.cookie, session.id, "2026-03-30T08:30:00.000Z")).status).toBe(200);
    for (const cookie of [stranger.cookie, otherTutor.cookie]) {
      expect((await answer(cookie, session.id, true)).status).toBe(404);
    }
    expect(await waiting(session.id)).toEqual(["2026-03-30T08:30:00.000Z"]);
  });
});

describe("a tutor's proposal", () => {
  it("is a session of their hours, answered by the learner alone", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    const offHours = await ask(siti.cookie, session.id, "2026-03-24T09:00:00.000Z");
    expect(offHours.status).toBe(422);
    expect((await errorOf(offHours)).code).toBe("PROPOSAL_OUTSIDE_HOURS");
    expect((await ask(siti.cookie, session.id, "2026-03-23T09:30:00.000Z")).status).toBe(200);
    const own = await answer(siti.cookie, session.id, true);
    expect(own.status).toBe(403);
    expect((await errorOf(own)).message).toBe("You asked for this time: the learner accepts or declines it.");
    const seen = await viewOf(await request(`/api/bookings/${session.id}`, { cookie: alex.cookie }));
    expect(seen.proposal).toMatchObject({ startsAt: "2026-03-23T09:30:00.000Z", by: "tutor" });
    expect((await answer(alex.cookie, session.id, true)).status).toBe(200);
  });
});

describe("one time asked for at once", () => {
  it("the later ask, from either side, replaces the one waiting, and the other side answers it", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    expect((await ask(siti.cookie, session.id, "2026-03-30T08:00:00.000Z", "Training day.")).status).toBe(200);
    const counter = await ask(alex.cookie, session.id, "2026-04-06T08:30:00.000Z");
    expect(counter.status).toBe(200);
    expect((await viewOf(counter)).proposal).toMatchObject({ startsAt: "2026-04-06T08:30:00.000Z", by: "learner" });
    expect(await waiting(session.id)).toEqual(["2026-04-06T08:30:00.000Z"]);
    // The tutor's time is no longer held.
    const times = (await (await timesFor(siti.cookie, session.id)).json()) as MoveTimes;
    expect(times.times.map((time) => time.startsAt)).toContain("2026-03-30T08:00:00.000Z");
    // It is now the tutor's to answer, not the learner's.
    expect((await answer(alex.cookie, session.id, true)).status).toBe(403);
    const accepted = await answer(siti.cookie, session.id, true);
    expect(accepted.status).toBe(200);
    const moved = await viewOf(accepted);
    expect(moved.startsAt).toBe("2026-04-06T08:30:00.000Z");
    expect(moved.changes.map((change) => change.kind)).toEqual(["booked", "proposed", "requested", "accepted"]);
  });
});
