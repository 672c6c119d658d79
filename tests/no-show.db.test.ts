import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { createNotifications } from "#server/db/notifications";
import { booking, bookingChange } from "#server/db/schema";
import type { ErrorBody } from "#server/http/errors";
import { createLogger } from "#server/logger";
import type { BookingView, TutorWeek } from "#server/modules/bookings/bookings.contract";
import type { CallServerMessage } from "#server/modules/calls/calls.contract";
import { insertBooking, personAs } from "./booked-session";
import { createTestApp, ORIGIN } from "./test-app";

/**
 * A no-show is for a session that did not take place (docs/decisions/063-limits-and-no-shows.md):
 * not before 10 minutes past the start, not once the tutor ended it, not once its learner and tutor
 * were in the room together (learned by the room's relay, here across two instances), and once; the
 * booking then says who marked it and when. On the real clock: sessions are placed around now.
 */
const t = await createTestApp();
const otherNotifications = createNotifications(process.env.TEST_DATABASE_URL!, createLogger("silent"));
const instances = [t.app, t.appWith({ notifications: otherNotifications })].map((app) => {
  const server = serve({
    fetch: app.fetch,
    port: 0,
    hostname: "127.0.0.1",
    websocket: { server: new WebSocketServer({ noServer: true }) },
  });
  return { server, port: () => (server.address() as AddressInfo).port };
});
const sockets: WebSocket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await Promise.all(instances.map(({ server }) => new Promise((resolve) => server.close(resolve))));
  await otherNotifications.close();
});

const MINUTE = 60_000;

/** A session of a new learner and a new tutor that started `minutesAgo` minutes ago. */
async function started(minutesAgo: number) {
  const [learner, tutor] = [await personAs(t), await personAs(t, "Tutor")];
  const startsAt = new Date(Date.now() - minutesAgo * MINUTE);
  const bookingId = await insertBooking(t, { tutorId: tutor.id, learnerId: learner.id, startsAt });
  return { bookingId, learner, tutor };
}

const noShow = (bookingId: string, cookie: string, json: unknown = {}) =>
  t.request(`/api/bookings/${bookingId}/no-show`, { method: "POST", cookie, json });
const stored = async (bookingId: string) => {
  const [row] = await t.db.select().from(booking).where(eq(booking.id, bookingId));
  const changes = await t.db.select().from(bookingChange).where(eq(bookingChange.bookingId, bookingId));
  return { noShow: row!.noShow, noShowBy: row!.noShowBy, noShowAt: row!.noShowAt, changes: changes.length };
};

/** A 409 with this code and message, the booking as it was. */
async function expectRefused(response: Response, bookingId: string, code: string, message: string) {
  expect(response.status).toBe(409);
  expect(((await response.json()) as ErrorBody).error).toEqual({ code, message });
  expect(await stored(bookingId)).toEqual({ noShow: null, noShowBy: null, noShowAt: null, changes: 0 });
}

/** A side in the booking's room on instance `index`, once the room has said who else is there. */
async function inRoom(index: 0 | 1, bookingId: string, cookie: string, waitFor?: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${instances[index]!.port()}/api/calls/${bookingId}/signal`, {
    headers: { cookie, origin: ORIGIN },
  });
  sockets.push(socket);
  const seen = new Promise<void>((resolve, reject) => {
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as CallServerMessage;
      if (waitFor === undefined ? message.type === "welcome" : message.type === "peer" && message.userId === waitFor)
        resolve();
    });
    socket.once("error", reject);
  });
  await seen;
  return socket;
}

/** When the two sides met, once the room's relay has kept it (it keeps it as it relays: waited for up to 10 s). */
async function metAt(bookingId: string): Promise<Date | null> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const [row] = await t.db.select({ metAt: booking.metAt }).from(booking).where(eq(booking.id, bookingId));
    if (row!.metAt || Date.now() > deadline) return row!.metAt;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("marking that the other side did not come", () => {
  it("is refused before 10 minutes past the start", async () => {
    const { bookingId, learner } = await started(5);
    await expectRefused(
      await noShow(bookingId, learner.cookie),
      bookingId,
      "NOT_STARTED",
      "You can mark a no-show from 10 minutes after the session's start.",
    );
  });

  it("is refused once the tutor has ended the session with its record", async () => {
    const { bookingId, learner, tutor } = await started(15);
    expect((await t.request(`/api/calls/${bookingId}/end`, { method: "POST", cookie: tutor.cookie })).status).toBe(200);
    await expectRefused(
      await noShow(bookingId, learner.cookie),
      bookingId,
      "SESSION_ENDED",
      "The tutor ended this session with its record, so it took place: it cannot be marked as a no-show.",
    );
  });

  it("is refused once the learner and the tutor were in the room together, each on its own instance", async () => {
    const { bookingId, learner, tutor } = await started(12);
    await inRoom(0, bookingId, learner.cookie);
    await inRoom(1, bookingId, tutor.cookie, learner.id);
    expect(await metAt(bookingId)).not.toBeNull();
    for (const side of [learner, tutor]) {
      await expectRefused(
        await noShow(bookingId, side.cookie),
        bookingId,
        "SESSION_MET",
        "The learner and the tutor were in the session room together, so the session took place: it cannot be marked as a no-show.",
      );
    }
  });

  it("is kept once, saying who marked it and when, when only an Admin came to the room with the learner", async () => {
    const { bookingId, learner, tutor } = await started(11);
    const admin = await personAs(t, "Admin");
    await inRoom(0, bookingId, learner.cookie);
    await inRoom(1, bookingId, admin.cookie, learner.id);

    const before = Date.now();
    const marked = await noShow(bookingId, learner.cookie);
    expect(marked.status, await marked.clone().text()).toBe(200);
    const { booking: mine } = (await marked.json()) as { booking: BookingView };
    expect(mine.noShow).toBe("tutor");
    expect(mine.noShowMarked?.by).toBe("You");
    expect(Date.parse(mine.noShowMarked!.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(await stored(bookingId)).toMatchObject({ noShow: "tutor", noShowBy: learner.id, changes: 1 });

    // The tutor's week shows it with the learner's name; marking again is refused, from either side.
    const week = (await (await t.request("/api/bookings/week", { cookie: tutor.cookie })).json()) as TutorWeek;
    const theirs = week.sessions.find((session) => session.id === bookingId)!;
    expect(theirs).toMatchObject({ noShow: "tutor", noShowMarked: { by: "Alex Tan", at: mine.noShowMarked!.at } });
    for (const side of [tutor, learner]) {
      const twice = await noShow(bookingId, side.cookie);
      expect(twice.status).toBe(409);
      expect(((await twice.json()) as ErrorBody).error).toEqual({
        code: "NO_SHOW_MARKED",
        message: "A no-show is already marked for this session.",
      });
    }
    expect(await stored(bookingId)).toMatchObject({ noShow: "tutor", noShowBy: learner.id, changes: 1 });
  });

  it("is lifted when the tutor comes late and the two meet in the room after all", async () => {
    const { bookingId, learner, tutor } = await started(11);
    expect((await noShow(bookingId, learner.cookie)).status).toBe(200);
    await inRoom(0, bookingId, learner.cookie);
    await inRoom(1, bookingId, tutor.cookie, learner.id);
    expect(await metAt(bookingId)).not.toBeNull();
    const [row] = await t.db.select().from(booking).where(eq(booking.id, bookingId));
    expect({ noShow: row!.noShow, noShowBy: row!.noShowBy, noShowAt: row!.noShowAt }).toEqual({
      noShow: null,
      noShowBy: null,
      noShowAt: null,
    });
    const view = (await (await t.request(`/api/bookings/${bookingId}`, { cookie: learner.cookie })).json()) as {
      booking: BookingView;
    };
    expect(view.booking).toMatchObject({ noShow: null, noShowMarked: null });
  });
});
