import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createNotifications } from "#server/db/notifications";
import { booking } from "#server/db/schema";
import { createLogger } from "#server/logger";
import type { CallRoom, CallServerMessage } from "#server/modules/calls/calls.contract";
import { REPLACED_CLOSE_CODE } from "#server/modules/calls/calls.rooms";
import { bookedSession, personAs } from "./booked-session";
import { type Instance, isPeer, serveInstances } from "./room-sockets";
import { createTestApp } from "./test-app";

/**
 * The session room's WebSocket between two app instances on one PostgreSQL: each serves HTTP with
 * WebSockets on a port of its own, with its own LISTEN connection, as two processes behind a load
 * balancer would. What one side sends reaches the other through PostgreSQL.
 */
const t = await createTestApp();
const otherNotifications = createNotifications(process.env.TEST_DATABASE_URL!, createLogger("silent"));
// Registered first, so it runs after the sockets and servers are closed.
afterAll(async () => {
  await otherNotifications.close();
});
const { instances, join, refusal } = serveInstances([t.app, t.appWith({ notifications: otherNotifications })]);
const [a, b] = instances as [Instance, Instance];

const person = (role?: "Student" | "Tutor" | "Admin") => personAs(t, role);
const session = (inMs?: number) => bookedSession(t, inMs);

describe("the session room", () => {
  it("joins a booking's learner and tutor on two instances, and passes offers, candidates in order, and chat", async () => {
    const { bookingId, learner, tutor } = await session();
    const learnerSide = join(a, bookingId, learner.cookie);
    const { connectionId } = (await learnerSide.next((message) => message.type === "welcome")) as Extract<
      CallServerMessage,
      { type: "welcome" }
    >;
    const tutorSide = join(b, bookingId, tutor.cookie);
    await tutorSide.next((message) => message.type === "welcome");
    // Each learns the other is there, whoever came first.
    await learnerSide.next(isPeer(tutor.id, true));
    await tutorSide.next(isPeer(learner.id, true));

    // An offer larger than a notification may carry (8,000 bytes), then its candidates.
    const sdp = `v=0\r\n${"a=candidate-line-of-a-long-offer\r\n".repeat(400)}`;
    learnerSide.send({ type: "description", description: { type: "offer", sdp } });
    const candidates = Array.from({ length: 6 }, (_, index) => ({
      candidate: `candidate:${index} 1 udp 2122260223 192.0.2.${index} 5000${index} typ host`,
      sdpMid: "0",
      sdpMLineIndex: 0,
    }));
    for (const candidate of candidates) learnerSide.send({ type: "candidate", candidate });
    const offer = await tutorSide.next((message) => message.type === "description");
    expect(offer).toEqual({ type: "description", from: learner.id, connectionId, description: { type: "offer", sdp } });
    const relayed = [];
    for (const _ of candidates) relayed.push(await tutorSide.next((message) => message.type === "candidate"));
    expect(relayed).toEqual(
      candidates.map((candidate) => ({ type: "candidate", from: learner.id, connectionId, candidate })),
    );
    // Nobody hears themself.
    expect(learnerSide.received.filter((message) => message.type === "description")).toEqual([]);

    tutorSide.send({ type: "chat", text: "  Selamat pagi! Shall we start?  " });
    for (const side of [learnerSide, tutorSide]) {
      const { message } = (await side.next((each) => each.type === "chat")) as Extract<
        CallServerMessage,
        { type: "chat" }
      >;
      expect(message).toMatchObject({ from: tutor.id, text: "Selamat pagi! Shall we start?" });
    }
    // The chat stays with the booking: a side that reloads reads it.
    const room = await t.request(`/api/calls/${bookingId}`, { cookie: learner.cookie });
    expect(room.status).toBe(200);
    const body = (await room.json()) as CallRoom;
    expect(body).toMatchObject({ open: true, iceServers: [], booking: { id: bookingId, youAre: "learner" } });
    expect(body.chat.map((message) => message.text)).toEqual(["Selamat pagi! Shall we start?"]);
    // It is the tutor's in Export My Data, and goes with their account.
    const exported = await t.request("/api/account/export", { cookie: tutor.cookie });
    expect(exported.status).toBe(200);
    expect((await exported.json()).callMessages).toEqual([
      { bookingId, text: "Selamat pagi! Shall we start?", at: body.chat[0]!.at },
    ]);

    // A message that is not one is answered, not relayed.
    learnerSide.send({ type: "chat", text: "x".repeat(1_001) });
    expect(await learnerSide.next((message) => message.type === "error")).toEqual({
      type: "error",
      message: "A message can be at most 1000 characters.",
    });

    tutorSide.socket.close();
    await learnerSide.next(isPeer(tutor.id, false));
  });

  it("lets a reload replace the earlier socket, and the other side sees the learner back", async () => {
    const { bookingId, learner, tutor } = await session();
    const first = join(a, bookingId, learner.cookie);
    await first.next((message) => message.type === "welcome");
    const tutorSide = join(a, bookingId, tutor.cookie);
    await tutorSide.next(isPeer(learner.id, true));
    // The learner reloads: a new socket, here on the other instance.
    const second = join(b, bookingId, learner.cookie);
    await second.next((message) => message.type === "welcome");
    await first.next((message) => message.type === "replaced");
    expect((await first.closed).code).toBe(REPLACED_CLOSE_CODE);
    await second.next(isPeer(tutor.id, true));
    await tutorSide.next(isPeer(learner.id, true));
    second.send({ type: "description", description: { type: "offer", sdp: "v=0\r\n" } });
    expect(await tutorSide.next((message) => message.type === "description")).toMatchObject({ from: learner.id });
  });

  it("delivers what was sent while an instance's LISTEN connection was down once it is back, in order and once", async () => {
    const { bookingId, learner, tutor } = await session();
    const learnerSide = join(a, bookingId, learner.cookie);
    await learnerSide.next((message) => message.type === "welcome");
    const tutorSide = join(b, bookingId, tutor.cookie);
    await tutorSide.next((message) => message.type === "welcome");
    await tutorSide.next(isPeer(learner.id, true));
    const back = new Promise<void>((resolve) => {
      const stop = otherNotifications.onReconnect(() => {
        stop();
        resolve();
      });
    });
    // The other instance's LISTEN connection is cut (its database backend killed) ...
    const { rows } = await t.pool.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and query like 'listen %' and pid <> pg_backend_pid()",
    );
    expect(rows.length).toBeGreaterThan(0);
    await t.pool.query("select pg_terminate_backend(pid) from unnest($1::int[]) as pid", [rows.map((row) => row.pid)]);
    for (let waited = 0; otherNotifications.listening && waited < 5_000; waited += 10) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(otherNotifications.listening).toBe(false);
    // ... while the learner sends an offer and a line of chat: their notifications cannot reach it.
    learnerSide.send({ type: "description", description: { type: "offer", sdp: "v=0\r\n" } });
    learnerSide.send({ type: "chat", text: "Are you still there?" });
    await back;
    // Back, it reads what it missed: the offer, then the chat, each once, before what is sent after.
    learnerSide.send({ type: "chat", text: "Good." });
    await tutorSide.next((each) => each.type === "chat" && each.message.text === "Good.");
    const missed = tutorSide.received.filter((each) => each.type === "chat" || each.type === "description");
    expect(missed.map((each) => (each.type === "chat" ? each.message.text : each.type))).toEqual([
      "description",
      "Are you still there?",
    ]);
  });

  it("lets in an Admin, and refuses another learner or tutor (404), another site (403) and a visitor (401)", async () => {
    const { bookingId } = await session();
    const admin = await person("Admin");
    const adminSide = join(b, bookingId, admin.cookie);
    await adminSide.opened;
    await adminSide.next((message) => message.type === "welcome");
    const [stranger, otherTutor] = [await person(), await person("Tutor")];
    expect(await refusal(a, bookingId, stranger.cookie)).toBe(404);
    expect(await refusal(b, bookingId, otherTutor.cookie)).toBe(404);
    expect(await refusal(a, bookingId, admin.cookie, "https://evil.example")).toBe(403);
    expect(await refusal(a, bookingId, "")).toBe(401);
    // The same requests without an upgrade say why, as any route does.
    const plain = await t.request(`/api/calls/${bookingId}/signal`, { cookie: stranger.cookie });
    expect(plain.status).toBe(404);
  });

  it("opens 5 minutes before the session and not for a cancelled one (409)", async () => {
    const early = await session(10 * 60_000);
    expect(await refusal(a, early.bookingId, early.learner.cookie)).toBe(409);
    const room = await t.request(`/api/calls/${early.bookingId}`, { cookie: early.tutor.cookie });
    expect(await room.json()).toMatchObject({ open: false, booking: { youAre: "tutor" } });

    const cancelled = await session();
    await t.db.update(booking).set({ status: "cancelled" }).where(eq(booking.id, cancelled.bookingId));
    expect(await refusal(b, cancelled.bookingId, cancelled.tutor.cookie)).toBe(409);
  });
});
