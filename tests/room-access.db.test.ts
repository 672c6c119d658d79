import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createNotifications } from "#server/db/notifications";
import { booking, callMessage, session as sessionTable } from "#server/db/schema";
import { createLogger } from "#server/logger";
import { type CallRoom, ROOM_CLOSE_CODES } from "#server/modules/calls/calls.contract";
import { bookedSession, personAs } from "./booked-session";
import { type Instance, isPeer, isWelcome, serveInstances } from "./room-sockets";
import { cookieFrom, createTestApp } from "./test-app";

/**
 * Who may stay in a session's room, after their socket was let in: three instances on one
 * PostgreSQL. A change made through instance B (a sign-out, a password change, a demotion, a deleted
 * account, a cancelled or moved booking) closes the sockets it concerns on instance A at once: A
 * checks its sockets again only every minute, so only the notification can close them within a
 * test's time. Instance C checks every 200 ms, and so catches what no notification tells.
 */
const t = await createTestApp();
const otherNotifications = createNotifications(process.env.TEST_DATABASE_URL!, createLogger("silent"));
// Registered first, so it runs after the sockets and servers are closed.
afterAll(async () => {
  await otherNotifications.close();
});
const appB = t.appWith({ notifications: otherNotifications });
const { instances, join } = serveInstances([t.app, appB, t.appWith({ roomAccessCheckMs: 200 })]);
const [a, , c] = instances as [Instance, Instance, Instance];
const onB = t.requestTo(appB);

/** A session whose room is open, with its learner's and its tutor's sockets on `instance`, each seeing the other. */
async function inTheRoom(instance: Instance = a) {
  const { bookingId, learner, tutor } = await bookedSession(t);
  const learnerSide = join(instance, bookingId, learner.cookie);
  await learnerSide.next(isWelcome);
  const tutorSide = join(instance, bookingId, tutor.cookie);
  await tutorSide.next(isWelcome);
  await learnerSide.next(isPeer(tutor.id, true));
  return { bookingId, learner, tutor, learnerSide, tutorSide };
}

describe("a room's open sockets", () => {
  it("close at once when their user signs out on another instance; the other side stays and sees them go", async () => {
    const { learner, learnerSide, tutorSide } = await inTheRoom();
    expect((await onB("/api/auth/sign-out", { method: "POST", cookie: learner.cookie })).status).toBe(200);
    expect(await learnerSide.closed).toEqual({
      code: ROOM_CLOSE_CODES.signedOut,
      reason: "You were signed out: sign in again to come back.",
    });
    await tutorSide.next(isPeer(learner.id, false));
    expect(tutorSide.socket.readyState).toBe(tutorSide.socket.OPEN);
  });

  it("close when the user's password is changed on another device, which stays in", async () => {
    const { bookingId, learnerSide, learner } = await inTheRoom();
    const other = await t.signIn({ email: learner.email, password: "kopi-o-kosong" });
    const changed = await onB("/api/auth/change-password", {
      method: "POST",
      cookie: other,
      json: { currentPassword: "kopi-o-kosong", newPassword: "teh-tarik-kurang-manis" },
    });
    expect(changed.status).toBe(200);
    expect((await learnerSide.closed).code).toBe(ROOM_CLOSE_CODES.signedOut);
    // The device that changed it, signed in again by the change, joins again.
    const again = join(a, bookingId, cookieFrom(changed));
    await again.next(isWelcome);
  });

  it("close when an Admin demotes the tutor on another instance: only a tutor holds a session", async () => {
    const { bookingId, tutor, tutorSide, learnerSide } = await inTheRoom();
    const admin = await personAs(t, "Admin");
    const demoted = await onB(`/api/users/${tutor.id}/role`, {
      method: "PATCH",
      cookie: admin.cookie,
      json: { role: "Student" },
    });
    expect(demoted.status).toBe(200);
    expect(await tutorSide.closed).toEqual({
      code: ROOM_CLOSE_CODES.notAllowed,
      reason: "You may no longer come into this session's room.",
    });
    await learnerSide.next(isPeer(tutor.id, false));
    expect((await onB(`/api/calls/${bookingId}`, { cookie: tutor.cookie })).status).toBe(403);
  });

  it("close when the account is deleted on another instance", async () => {
    const { learner, learnerSide } = await inTheRoom();
    const deleted = await onB("/api/account", {
      method: "DELETE",
      cookie: learner.cookie,
      json: { password: "kopi-o-kosong" },
    });
    expect(deleted.status).toBe(200);
    expect((await learnerSide.closed).code).toBe(ROOM_CLOSE_CODES.signedOut);
  });

  it("close on both sides when the tutor cancels the session on another instance", async () => {
    const { bookingId, tutor, learnerSide, tutorSide } = await inTheRoom();
    const cancelled = await onB(`/api/bookings/${bookingId}/cancel`, {
      method: "POST",
      cookie: tutor.cookie,
      json: { reason: "Unwell today." },
    });
    expect(cancelled.status).toBe(200);
    for (const side of [learnerSide, tutorSide]) {
      expect(await side.closed).toEqual({
        code: ROOM_CLOSE_CODES.notTakingPlace,
        reason: "This session is not taking place: its room is closed.",
      });
    }
  });

  it("close when the session moves to another day", async () => {
    const { bookingId, tutor, learner, learnerSide, tutorSide } = await inTheRoom();
    // A new time is one of the tutor's hours (decision 063): every day, all day, in UTC.
    const allDay = [{ start: "00:00", end: "24:00" }];
    const hours = {
      timeZone: "UTC",
      bio: "",
      languages: [],
      sessionMinutes: 30,
      noticeHours: 12,
      horizonDays: 28,
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, ranges: allDay })),
      exceptions: [],
    };
    const saved = await onB("/api/bookings/hours", { method: "PUT", cookie: tutor.cookie, json: hours });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const tomorrow = new Date(Date.now() + 26 * 60 * 60_000);
    tomorrow.setUTCMinutes(0, 0, 0);
    const proposed = await onB(`/api/bookings/${bookingId}/propose`, {
      method: "POST",
      cookie: tutor.cookie,
      json: { startsAt: tomorrow.toISOString() },
    });
    expect(proposed.status, await proposed.clone().text()).toBe(200);
    // A proposal waiting changes nothing: the session is still at its time.
    const accepted = await onB(`/api/bookings/${bookingId}/proposal`, {
      method: "POST",
      cookie: learner.cookie,
      json: { accept: true },
    });
    expect(accepted.status).toBe(200);
    for (const side of [learnerSide, tutorSide]) expect((await side.closed).code).toBe(ROOM_CLOSE_CODES.notTakingPlace);
  });

  it("are checked again on a schedule: a session deleted in the database, which no one announces, closes its socket", async () => {
    const { learner, learnerSide, tutorSide } = await inTheRoom(c);
    await t.db.delete(sessionTable).where(eq(sessionTable.userId, learner.id));
    expect((await learnerSide.closed).code).toBe(ROOM_CLOSE_CODES.signedOut);
    expect(tutorSide.socket.readyState).toBe(tutorSide.socket.OPEN);
  });

  it("store nothing a signed-out socket sends: its chat is refused and the socket closed", async () => {
    const { bookingId, learner, learnerSide, tutorSide } = await inTheRoom();
    // Gone without a notification, so instance A's socket is still open when the message arrives.
    await t.db.delete(sessionTable).where(eq(sessionTable.userId, learner.id));
    learnerSide.send({ type: "chat", text: "Still here?" });
    expect((await learnerSide.closed).code).toBe(ROOM_CLOSE_CODES.signedOut);
    await tutorSide.next(isPeer(learner.id, false));
    expect(await t.db.select().from(callMessage).where(eq(callMessage.bookingId, bookingId))).toEqual([]);
    expect(tutorSide.received.filter((message) => message.type === "chat")).toEqual([]);
  });
});

describe("TURN credentials", () => {
  const turn = { urls: ["turn:turn.example:3478"], secret: "north-star-shared-secret" };
  const withTurn = t.requestTo(t.appWith({ turn }));
  const roomOf = async (bookingId: string, cookie: string) =>
    (await (await withTurn(`/api/calls/${bookingId}`, { cookie })).json()) as CallRoom;

  it("are given only while the room is open, and expire when it closes", async () => {
    const open = await bookedSession(t);
    const room = await roomOf(open.bookingId, open.learner.cookie);
    expect(room.open).toBe(true);
    expect(room.iceServers).toHaveLength(1);
    expect(room.iceServers[0]!.username).toBe(
      `${Math.floor(new Date(room.closesAt).getTime() / 1000)}:${open.learner.id}`,
    );

    const later = await bookedSession(t, 60 * 60_000);
    expect(await roomOf(later.bookingId, later.tutor.cookie)).toMatchObject({ open: false, iceServers: [] });

    const cancelled = await bookedSession(t);
    await t.db.update(booking).set({ status: "cancelled" }).where(eq(booking.id, cancelled.bookingId));
    expect(await roomOf(cancelled.bookingId, cancelled.learner.cookie)).toMatchObject({ open: false, iceServers: [] });
  });
});
