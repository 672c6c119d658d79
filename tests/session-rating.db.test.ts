import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessionRating } from "#server/db/schema";
import type { ErrorBody } from "#server/http/errors";
import type { AccountExport } from "#server/modules/account/account.contract";
import type { BookingView } from "#server/modules/bookings/bookings.contract";
import type { SessionRatingGiven, TutorRatings, TutorsRatings } from "#server/modules/calls/calls.contract";
import { bookedMonday, personAs } from "./booked-session";
import { createTestApp } from "./test-app";

/**
 * After a session is held, its learner rates it (docs/decisions/083-a-session-held.md): 1-5 stars
 * and an optional comment, once, changed for 24 hours; its tutor reads their ratings (without who
 * gave them) and Admins every tutor's. Through HTTP on a clock the test moves.
 */
const t = await createTestApp();
let clock = new Date("2026-03-20T00:00:00.000Z");
const request = t.requestTo(t.appWith({ now: () => clock }));

const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;
const rate = (bookingId: string, cookie: string, json: unknown) =>
  request(`/api/calls/${bookingId}/session-rating`, { method: "PUT", cookie, json });
const stored = async (bookingId: string) =>
  t.db.select().from(sessionRating).where(eq(sessionRating.bookingId, bookingId));

/** Siti's session with Alex on Monday 23 March at 09:00 London, and `end` to have Siti end it at 09:20. */
async function session() {
  clock = new Date("2026-03-20T00:00:00.000Z");
  const scene = await bookedMonday(t, request);
  const end = async () => {
    clock = new Date("2026-03-23T09:20:00.000Z");
    const ended = await request(`/api/calls/${scene.session.id}/end`, { method: "POST", cookie: scene.siti.cookie });
    expect(ended.status).toBe(200);
  };
  return { ...scene, end };
}

describe("the learner's rating of a session", () => {
  it("waits until the session is held", async () => {
    const { alex, session: booked } = await session();
    clock = new Date("2026-03-23T09:20:00.000Z");
    const response = await rate(booked.id, alex.cookie, { stars: 5 });
    expect(response.status).toBe(409);
    expect(await errorOf(response)).toEqual({
      code: "NOT_HELD",
      message: "You can rate a session once it has been held: its tutor ends it in the session room.",
    });
    expect(await stored(booked.id)).toEqual([]);
  });

  it("is given once, changed within 24 hours of it, and refused after", async () => {
    const { alex, siti, session: booked, end } = await session();
    await end();
    const first = await rate(booked.id, alex.cookie, { stars: 4, comment: "  Very patient with my greetings.  " });
    expect(first.status).toBe(200);
    const given: SessionRatingGiven = {
      stars: 4,
      comment: "Very patient with my greetings.",
      givenAt: "2026-03-23T09:20:00.000Z",
      editableUntil: "2026-03-24T09:20:00.000Z",
    };
    expect(await first.json()).toEqual(given);
    const views = async (cookie: string) =>
      ((await (await request("/api/bookings/mine", { cookie })).json()) as { bookings: BookingView[] }).bookings;
    expect((await views(alex.cookie)).find((each) => each.id === booked.id)?.held?.rating).toEqual(given);
    expect((await views(siti.cookie)).find((each) => each.id === booked.id)?.held?.rating).toEqual(given);

    clock = new Date("2026-03-24T09:10:00.000Z");
    const changed = await rate(booked.id, alex.cookie, { stars: 5, comment: "" });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ ...given, stars: 5, comment: null });

    clock = new Date("2026-03-24T09:21:00.000Z");
    const late = await rate(booked.id, alex.cookie, { stars: 1, comment: "Changed my mind." });
    expect(late.status).toBe(409);
    expect(await errorOf(late)).toEqual({
      code: "RATING_CLOSED",
      message: "A rating can be changed for 24 hours after it was first given: yours can no longer be changed.",
    });
    expect(await stored(booked.id)).toMatchObject([{ stars: 5, comment: null }]);
  });

  it("is only the learner's: its tutor and an Admin are refused, anyone else finds no session", async () => {
    const { siti, session: booked, end } = await session();
    await end();
    const admin = await personAs(t, "Admin");
    for (const cookie of [siti.cookie, admin.cookie]) {
      const response = await rate(booked.id, cookie, { stars: 5 });
      expect(response.status).toBe(403);
      expect(await errorOf(response)).toEqual({ code: "FORBIDDEN", message: "Only the session's learner rates it." });
    }
    const stranger = await personAs(t);
    expect((await rate(booked.id, stranger.cookie, { stars: 5 })).status).toBe(404);
    expect((await rate("not-a-booking", stranger.cookie, { stars: 5 })).status).toBe(404);
    expect(await stored(booked.id)).toEqual([]);
  });

  it.each([
    ["no stars", {}, "A rating is a whole number of stars from 1 to 5."],
    ["0 stars", { stars: 0 }, "A rating is a whole number of stars from 1 to 5."],
    ["6 stars", { stars: 6 }, "A rating is a whole number of stars from 1 to 5."],
    ["3.5 stars", { stars: 3.5 }, "A rating is a whole number of stars from 1 to 5."],
    ["stars as text", { stars: "4" }, "A rating is a whole number of stars from 1 to 5."],
    [
      "a comment of 1001 characters",
      { stars: 4, comment: "x".repeat(1001) },
      "A comment can be at most 1000 characters.",
    ],
    ["a comment that is a number", { stars: 4, comment: 12 }, "A comment must be text."],
    [
      "a comment with a control character",
      { stars: 4, comment: "Bagus\u0007" },
      "Your comment cannot contain control characters other than line breaks and tabs.",
    ],
  ])("refuses %s with a clear message, storing nothing", async (_name, json, message) => {
    const { alex, session: booked, end } = await session();
    await end();
    const response = await rate(booked.id, alex.cookie, json);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toBe(message);
    expect(await stored(booked.id)).toEqual([]);
  });

  it("refuses fields it does not know", async () => {
    const { alex, session: booked, end } = await session();
    await end();
    const response = await rate(booked.id, alex.cookie, { stars: 4, learnerId: "someone" });
    expect(response.status).toBe(400);
    expect(await stored(booked.id)).toEqual([]);
  });
});

describe("tutors' ratings", () => {
  it("shows a tutor their average, count and recent comments with day and date, never who wrote them", async () => {
    const first = await session();
    await first.end();
    expect((await rate(first.session.id, first.alex.cookie, { stars: 4, comment: "Clear and kind." })).status).toBe(
      200,
    );
    clock = new Date("2026-03-23T12:00:00.000Z");
    const other = await personAs(t, "Student", { firstName: "Nur", lastName: "Tan" });
    // A second learner of the same tutor: their session, held, rated without a comment.
    const siti = first.siti;
    clock = new Date("2026-03-20T00:00:00.000Z");
    const made = await request("/api/bookings/days/chapter-1/day-1", {
      method: "POST",
      cookie: other.cookie,
      json: { tutorId: siti.id, startsAt: "2026-03-30T08:00:00.000Z" },
    });
    expect(made.status).toBe(201);
    const { booking: second } = (await made.json()) as { booking: BookingView };
    clock = new Date("2026-03-30T08:20:00.000Z");
    expect((await request(`/api/calls/${second.id}/end`, { method: "POST", cookie: siti.cookie })).status).toBe(200);
    expect((await rate(second.id, other.cookie, { stars: 3 })).status).toBe(200);

    const response = await request("/api/calls/session-ratings/mine", { cookie: siti.cookie });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      average: 3.5,
      count: 2,
      sessionsHeld: 2,
      recent: [
        {
          stars: 4,
          comment: "Clear and kind.",
          dayTitle: first.session.dayTitle,
          sessionStartsAt: "2026-03-23T09:00:00.000Z",
          givenAt: "2026-03-23T09:20:00.000Z",
        },
      ],
    } satisfies TutorRatings);
    for (const secret of [first.alex.email, other.email, first.alex.id, other.id, "Alex", "Nur"]) {
      expect(text).not.toContain(secret);
    }
    expect((await request("/api/calls/session-ratings/mine", { cookie: first.alex.cookie })).status).toBe(403);
  });

  it("shows an Admin every tutor's, by name, a tutor not yet rated with none", async () => {
    const rated = await session();
    await rated.end();
    expect((await rate(rated.session.id, rated.alex.cookie, { stars: 2, comment: "Too fast." })).status).toBe(200);
    const admin = await personAs(t, "Admin");
    const response = await request("/api/calls/session-ratings/tutors", { cookie: admin.cookie });
    expect(response.status).toBe(200);
    const { tutors } = (await response.json()) as TutorsRatings;
    expect(tutors.find((entry) => entry.tutor.id === rated.siti.id)).toMatchObject({
      tutor: { name: "Siti Tan" },
      average: 2,
      count: 1,
      sessionsHeld: 1,
      recent: [{ stars: 2, comment: "Too fast." }],
    });
    const unrated = (await session()).siti;
    const again = (await (
      await request("/api/calls/session-ratings/tutors", { cookie: admin.cookie })
    ).json()) as TutorsRatings;
    expect(again.tutors.find((entry) => entry.tutor.id === unrated.id)).toEqual({
      tutor: { id: unrated.id, name: "Siti Tan", photo: null },
      average: null,
      count: 0,
      sessionsHeld: 0,
      recent: [],
    });
    for (const cookie of [rated.siti.cookie, rated.alex.cookie]) {
      expect((await request("/api/calls/session-ratings/tutors", { cookie })).status).toBe(403);
    }
  });
});

describe("the learner's ratings and their account", () => {
  it("are in Export My Data, and go when the learner closes their account", async () => {
    const { alex, siti, session: booked, end } = await session();
    await end();
    expect((await rate(booked.id, alex.cookie, { stars: 5, comment: "Terima kasih!" })).status).toBe(200);
    const exported = (await (await t.request("/api/account/export", { cookie: alex.cookie })).json()) as AccountExport;
    expect(exported.sessionRatings).toEqual([
      {
        bookingId: booked.id,
        chapterId: "chapter-1",
        dayId: "day-1",
        sessionStartsAt: "2026-03-23T09:00:00.000Z",
        stars: 5,
        comment: "Terima kasih!",
        givenAt: "2026-03-23T09:20:00.000Z",
        updatedAt: "2026-03-23T09:20:00.000Z",
      },
    ]);
    const tutorsOwn = (await (await t.request("/api/account/export", { cookie: siti.cookie })).json()) as AccountExport;
    expect(tutorsOwn.sessionRatings).toEqual([]);

    const closed = await t.request("/api/account", {
      method: "DELETE",
      cookie: alex.cookie,
      json: { password: "kopi-o-kosong" },
    });
    expect(closed.status).toBe(200);
    expect(await stored(booked.id)).toEqual([]);
    const ratings = (await (
      await request("/api/calls/session-ratings/mine", { cookie: siti.cookie })
    ).json()) as TutorRatings;
    expect(ratings).toMatchObject({ count: 0, average: null, sessionsHeld: 1 });
  });
});
