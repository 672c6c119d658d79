import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createNotifications } from "#server/db/notifications";
import { callSignal } from "#server/db/schema";
import { createLogger } from "#server/logger";
import type { RoomPresence } from "#server/modules/calls/calls.contract";
import { bookedSession, personAs } from "./booked-session";
import { type Instance, isPeer, serveInstances } from "./room-sockets";
import { createTestApp } from "./test-app";

/**
 * Who is in a session's room, as its two sides' cards read it (GET /api/calls/:bookingId/presence):
 * from the room's signals in PostgreSQL, so a side on one instance is seen from the other.
 */
const t = await createTestApp();
const otherNotifications = createNotifications(process.env.TEST_DATABASE_URL!, createLogger("silent"));
afterAll(async () => {
  await otherNotifications.close();
});
const { instances, join } = serveInstances([t.app, t.appWith({ notifications: otherNotifications })]);
const [a, b] = instances as [Instance, Instance];

async function presence(bookingId: string, cookie: string) {
  const response = await t.request(`/api/calls/${bookingId}/presence`, { cookie });
  return { status: response.status, body: (await response.json()) as RoomPresence };
}

/** Waits until the presence read as `cookie` is `expected`: a side's hello or bye is stored just after its socket opens or closes. */
async function expectPresence(bookingId: string, cookie: string, expected: Omit<RoomPresence, "open">) {
  const deadline = Date.now() + 5_000;
  let last: RoomPresence | undefined;
  while (Date.now() < deadline) {
    last = (await presence(bookingId, cookie)).body;
    if (last.tutorHere === expected.tutorHere && last.learnerHere === expected.learnerHere) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(last).toEqual({ open: true, ...expected });
}

describe("the room's presence", () => {
  it("tells the learner their tutor is in the room (on another instance), until the tutor leaves", async () => {
    const { bookingId, learner, tutor } = await session();
    expect(await presence(bookingId, learner.cookie)).toEqual({
      status: 200,
      body: { open: true, tutorHere: false, learnerHere: false },
    });

    const tutorSide = join(b, bookingId, tutor.cookie);
    await tutorSide.next((message) => message.type === "welcome");
    await expectPresence(bookingId, learner.cookie, { tutorHere: true, learnerHere: false });

    // A reload: the new socket replaces the first, whose goodbye does not take the tutor out.
    const again = join(a, bookingId, tutor.cookie);
    await again.next((message) => message.type === "welcome");
    await tutorSide.closed;
    await expectPresence(bookingId, learner.cookie, { tutorHere: true, learnerHere: false });

    // The learner comes in: the tutor's card (and the Admin's) sees both.
    const learnerSide = join(a, bookingId, learner.cookie);
    await learnerSide.next(isPeer(tutor.id, true));
    await expectPresence(bookingId, tutor.cookie, { tutorHere: true, learnerHere: true });

    again.socket.close();
    await expectPresence(bookingId, learner.cookie, { tutorHere: false, learnerHere: true });
  });

  it("is the booking's sides' and Admins' only (404 to another learner or tutor, 401 signed out)", async () => {
    const { bookingId, tutor } = await session();
    const tutorSide = join(a, bookingId, tutor.cookie);
    await tutorSide.next((message) => message.type === "welcome");
    const admin = await personAs(t, "Admin");
    await expectPresence(bookingId, admin.cookie, { tutorHere: true, learnerHere: false });
    for (const stranger of [await personAs(t), await personAs(t, "Tutor")]) {
      const refused = await t.request(`/api/calls/${bookingId}/presence`, { cookie: stranger.cookie });
      expect(refused.status).toBe(404);
      expect(JSON.stringify(await refused.json())).not.toContain("tutorHere");
    }
    expect((await t.request(`/api/calls/${bookingId}/presence`)).status).toBe(401);
  });

  it("says nobody is there while the room is closed", async () => {
    const { bookingId, learner } = await session(10 * 60_000);
    expect(await presence(bookingId, learner.cookie)).toEqual({
      status: 200,
      body: { open: false, tutorHere: false, learnerHere: false },
    });
  });

  it("keeps a side's hello past the hour other signals are kept, while its socket has not said goodbye", async () => {
    const { bookingId, learner, tutor } = await session();
    const tutorSide = join(a, bookingId, tutor.cookie);
    await tutorSide.next((message) => message.type === "welcome");
    tutorSide.send({ type: "candidate", candidate: null });
    await expectPresence(bookingId, learner.cookie, { tutorHere: true, learnerHere: false });
    await expect
      .poll(async () => (await t.db.select().from(callSignal).where(eq(callSignal.bookingId, bookingId))).length)
      .toBe(2);
    // The tutor came in 90 minutes ago (a long session's room), and a candidate of theirs is as old.
    await t.db
      .update(callSignal)
      .set({ createdAt: sql`now() - interval '90 minutes'` })
      .where(eq(callSignal.bookingId, bookingId));
    await t.modules.calls.service.prune();
    const kept = await t.db
      .select({ kind: callSignal.kind })
      .from(callSignal)
      .where(and(eq(callSignal.bookingId, bookingId), eq(callSignal.senderId, tutor.id)));
    expect(kept.map((row) => row.kind)).toEqual(["hello"]);
    await expectPresence(bookingId, learner.cookie, { tutorHere: true, learnerHere: false });
  });
});

function session(inMs?: number) {
  return bookedSession(t, inMs);
}
