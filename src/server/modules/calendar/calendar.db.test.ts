import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { calendarFeed, user } from "#server/db/schema";
import type { ErrorBody } from "#server/http/errors";
import { bookedMonday, insertBooking, personAs } from "#tests/booked-session";
import { createTestApp } from "#tests/test-app";
import type { CalendarFeedMade, CalendarFeedState } from "./calendar.contract";
import { NO_SUCH_FEED, tokenHashOf } from "./calendar.service";

/**
 * A user's calendar feed through HTTP on a fake clock, read back with ical.js (the parser of
 * Thunderbird and of many web calendars): its events carry the invites' UIDs and SEQUENCEs, a
 * move and a cancel show in it, and a link made again or turned off stops at once.
 */
const t = await createTestApp();
/** Friday 20 March 2026, 00:00 UTC: London is on GMT until Sunday 29 March. */
const now = () => new Date("2026-03-20T00:00:00.000Z");
const request = t.requestTo(t.appWith({ now }));

const makeFeed = async (cookie: string) => {
  const made = await request("/api/calendar/feed", { method: "POST", cookie });
  expect(made.status).toBe(201);
  return (await made.json()) as CalendarFeedMade;
};
/** The feed at `url` as a calendar app asks for it: no cookie, only the link. */
const fetchFeed = (url: string) => request(new URL(url).pathname);

interface FeedEvent {
  uid: string;
  sequence: number;
  start: string;
  end: string;
  summary: string;
  url: string;
  status: string;
}

/** The feed's events as ical.js reads them, each start and end as an ISO instant. */
async function eventsOf(url: string): Promise<FeedEvent[]> {
  const response = await fetchFeed(url);
  expect(response.status, await response.clone().text()).toBe(200);
  const calendar = new ICAL.Component(ICAL.parse(await response.text()));
  expect(calendar.getFirstPropertyValue("method")).toBe("PUBLISH");
  return calendar.getAllSubcomponents("vevent").map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      sequence: event.sequence,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      summary: event.summary,
      url: String(component.getFirstPropertyValue("url")),
      status: String(component.getFirstPropertyValue("status")),
    };
  });
}

/** The UID of the invites mailed to `address` (every invite of one booking carries the same). */
async function inviteUidsTo(address: string): Promise<string[]> {
  const mails = (await t.outbox()).filter((mail) => mail.to === address && mail.calendar);
  return [...new Set(mails.map((mail) => /UID:(.+)/.exec(mail.calendar!.content)![1]!.trim()))];
}

/** Ends with the session room's path (/sessions/:bookingId). */
const roomOf = (bookingId: string) => expect.stringMatching(new RegExp(`/sessions/${bookingId}$`));

describe("a user's calendar feed", () => {
  it("answers their session with the invites' UID and SEQUENCE, the day and the other side, to the link alone", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    expect(await (await request("/api/calendar/feed", { cookie: alex.cookie })).json()).toEqual({ feed: null });
    const made = await makeFeed(alex.cookie);
    expect(made.url).toMatch(/^https?:\/\/[^/]+\/api\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(made.webcal).toBe(made.url.replace(/^https?:/, "webcal:"));
    // Only the token's hash is kept, and the feed's state never reads the link back.
    const token = /feed\/([^/.]+)\.ics$/.exec(made.url)![1]!;
    const [row] = await t.db.select().from(calendarFeed).where(eq(calendarFeed.userId, alex.id));
    expect(row!.tokenHash).toBe(tokenHashOf(token));
    expect(JSON.stringify(row)).not.toContain(token);
    const state = (await (await request("/api/calendar/feed", { cookie: alex.cookie })).json()) as CalendarFeedState;
    expect(state).toEqual({ feed: { createdAt: made.feed.createdAt } });

    const response = await fetchFeed(made.url);
    expect(response.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    const [uid] = await inviteUidsTo(alex.email);
    const events = await eventsOf(made.url);
    expect(events).toEqual([
      {
        uid,
        sequence: 0,
        start: "2026-03-23T09:00:00.000Z",
        end: "2026-03-23T09:30:00.000Z",
        summary: "Jalan: Day 1: Arrival and greetings live session with Siti Tan",
        url: roomOf(session.id),
        status: "CONFIRMED",
      },
    ]);
    // Without ".ics" too; the tutor's own feed holds the same event, naming the learner.
    expect((await fetchFeed(made.url.replace(/\.ics$/, ""))).status).toBe(200);
    const tutorFeed = await makeFeed(siti.cookie);
    expect(await eventsOf(tutorFeed.url)).toEqual([
      expect.objectContaining({
        uid,
        sequence: 0,
        summary: "Jalan: Day 1: Arrival and greetings live session with Alex Tan",
      }),
    ]);
  });

  it("changes with a reschedule, one event at the new time with a higher SEQUENCE, and shows a cancel", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    const { url } = await makeFeed(alex.cookie);
    const proposed = await request(`/api/bookings/${session.id}/propose`, {
      method: "POST",
      cookie: siti.cookie,
      json: { startsAt: "2026-03-30T08:00:00.000Z" },
    });
    expect(proposed.status).toBe(200);
    // A proposal waiting for its answer moves nothing yet.
    expect((await eventsOf(url)).map((event) => [event.sequence, event.start])).toEqual([
      [0, "2026-03-23T09:00:00.000Z"],
    ]);
    const accepted = await request(`/api/bookings/${session.id}/proposal`, {
      method: "POST",
      cookie: alex.cookie,
      json: { accept: true },
    });
    expect(accepted.status).toBe(200);
    const moved = ((await accepted.json()) as { booking: { id: string } }).booking;
    const [uid] = await inviteUidsTo(alex.email);
    expect(await inviteUidsTo(alex.email)).toEqual([uid]);
    expect(await eventsOf(url)).toEqual([
      expect.objectContaining({
        uid,
        sequence: 1,
        start: "2026-03-30T08:00:00.000Z",
        end: "2026-03-30T08:30:00.000Z",
        url: roomOf(moved.id),
        status: "CONFIRMED",
      }),
    ]);

    const cancelled = await request(`/api/bookings/${moved.id}/cancel`, {
      method: "POST",
      cookie: siti.cookie,
      json: { reason: "Taken ill." },
    });
    expect(cancelled.status).toBe(200);
    expect(await eventsOf(url)).toEqual([
      expect.objectContaining({ uid, sequence: 2, start: "2026-03-30T08:00:00.000Z", status: "CANCELLED" }),
    ]);
  });

  it("changes with a learner's request the tutor accepts: the same UID, a higher SEQUENCE, the new times", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    const feeds = [(await makeFeed(alex.cookie)).url, (await makeFeed(siti.cookie)).url];
    const [uid] = await inviteUidsTo(alex.email);
    for (const url of feeds) {
      expect(await eventsOf(url)).toEqual([
        expect.objectContaining({ uid, sequence: 0, start: "2026-03-23T09:00:00.000Z", url: roomOf(session.id) }),
      ]);
    }
    const asked = await request(`/api/bookings/${session.id}/propose`, {
      method: "POST",
      cookie: alex.cookie,
      json: { startsAt: "2026-04-06T08:30:00.000Z" },
    });
    expect(asked.status).toBe(200);
    const accepted = await request(`/api/bookings/${session.id}/proposal`, {
      method: "POST",
      cookie: siti.cookie,
      json: { accept: true },
    });
    expect(accepted.status).toBe(200);
    const moved = ((await accepted.json()) as { booking: { id: string } }).booking;
    for (const url of feeds) {
      expect(await eventsOf(url)).toEqual([
        expect.objectContaining({
          uid,
          sequence: 1,
          start: "2026-04-06T08:30:00.000Z",
          end: "2026-04-06T09:00:00.000Z",
          url: roomOf(moved.id),
          status: "CONFIRMED",
        }),
      ]);
    }
  });

  it("holds the last 30 days and what is to come, nothing older", async () => {
    const [learner, tutor] = [await personAs(t), await personAs(t, "Tutor")];
    const at = (iso: string) => insertBooking(t, { tutorId: tutor.id, learnerId: learner.id, startsAt: new Date(iso) });
    await at("2026-02-17T09:00:00.000Z");
    const recent = await at("2026-02-19T09:00:00.000Z");
    const ahead = await at("2026-05-04T09:00:00.000Z");
    const { url } = await makeFeed(learner.cookie);
    expect((await eventsOf(url)).map((event) => event.url.split("/").at(-1))).toEqual([recent, ahead]);
  });

  it("stops answering an old link once it is made again, and any once it is turned off", async () => {
    const { alex } = await bookedMonday(t, request);
    const first = await makeFeed(alex.cookie);
    const second = await makeFeed(alex.cookie);
    expect(second.url).not.toBe(first.url);
    const gone = await fetchFeed(first.url);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as ErrorBody).error).toEqual({ code: "NOT_FOUND", message: NO_SUCH_FEED });
    expect(await eventsOf(second.url)).toHaveLength(1);

    const off = await request("/api/calendar/feed", { method: "DELETE", cookie: alex.cookie });
    expect(await off.json()).toEqual({ feed: null });
    expect((await fetchFeed(second.url)).status).toBe(404);
    expect(await t.db.select().from(calendarFeed).where(eq(calendarFeed.userId, alex.id))).toEqual([]);
    for (const stranger of ["not-a-token", "A".repeat(43), `${"A".repeat(43)}.ics`]) {
      expect((await request(`/api/calendar/feed/${stranger}`)).status).toBe(404);
    }
  });

  it("never shows one user's sessions in another's feed", async () => {
    const mine = await bookedMonday(t, request);
    const theirs = await bookedMonday(t, request);
    const [myUid] = await inviteUidsTo(mine.alex.email);
    const [theirUid] = await inviteUidsTo(theirs.alex.email);
    await makeFeed(mine.alex.cookie);
    expect((await eventsOf((await makeFeed(theirs.alex.cookie)).url)).map((event) => event.uid)).toEqual([theirUid]);
    expect(theirUid).not.toBe(myUid);
  });

  it("is in Export My Data as when it was made, never its hash, and goes with the account", async () => {
    const me = await personAs(t);
    const made = await makeFeed(me.cookie);
    const exported = await (await t.request("/api/account/export", { cookie: me.cookie })).json();
    expect(exported.calendarFeed).toEqual({ createdAt: made.feed.createdAt });
    const [row] = await t.db.select().from(calendarFeed).where(eq(calendarFeed.userId, me.id));
    expect(JSON.stringify(exported)).not.toContain(row!.tokenHash);
    await t.db.delete(user).where(eq(user.id, me.id));
    expect(await t.db.select().from(calendarFeed).where(eq(calendarFeed.userId, me.id))).toEqual([]);
  });
});
