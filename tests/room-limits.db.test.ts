import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createNotifications } from "#server/db/notifications";
import { callMessage, callSignal } from "#server/db/schema";
import { createLogger } from "#server/logger";
import { type CallServerMessage, ROOM_CLOSE_CODES } from "#server/modules/calls/calls.contract";
import type { RoomLimits } from "#server/modules/calls/calls.repository";
import { ROOM_MAX_PAYLOAD } from "#server/modules/calls/calls.sockets";
import { bookedSession } from "./booked-session";
import { type Instance, isPeer, isWelcome, serveInstances } from "./room-sockets";
import { createTestApp } from "./test-app";

/**
 * What one user may send into a session's room, over two instances on one PostgreSQL with small
 * limits: counted on what is stored, so neither another socket nor another instance starts the
 * count again; the room is the booking as stored, whatever the spelling of its id.
 */
const t = await createTestApp();
const roomLimits: RoomLimits = { messagesPerWindow: 20, windowMs: 10 * 60_000, signalBytes: 8_000, chatBytes: 2_000 };
const otherNotifications = createNotifications(process.env.TEST_DATABASE_URL!, createLogger("silent"));
// Registered first, so it runs after the sockets and servers are closed.
afterAll(async () => {
  await otherNotifications.close();
});
const { instances, join } = serveInstances([
  t.appWith({ roomLimits }),
  t.appWith({ roomLimits, notifications: otherNotifications }),
]);
const [a, b] = instances as [Instance, Instance];

const candidate = (index: number) => ({
  type: "candidate",
  candidate: {
    candidate: `candidate:${index} 1 udp 2122260223 192.0.2.1 5000 typ host`,
    sdpMid: "0",
    sdpMLineIndex: 0,
  },
});
const isError = (message: CallServerMessage): message is Extract<CallServerMessage, { type: "error" }> =>
  message.type === "error";

async function stored(bookingId: string, senderId: string, kind: "candidate" | "description") {
  const [row] = await t.db
    .select({ rows: sql<number>`count(*)::int`, bytes: sql<number>`coalesce(sum(octet_length(body::text)), 0)::int` })
    .from(callSignal)
    .where(and(eq(callSignal.bookingId, bookingId), eq(callSignal.senderId, senderId), eq(callSignal.kind, kind)));
  return row!;
}

async function inTheRoom(instance: Instance) {
  const { bookingId, learner, tutor } = await bookedSession(t);
  const tutorSide = join(b, bookingId, tutor.cookie);
  await tutorSide.next(isWelcome);
  const learnerSide = join(instance, bookingId, learner.cookie);
  await learnerSide.next(isWelcome);
  await tutorSide.next(isPeer(learner.id, true));
  return { bookingId, learner, tutor, learnerSide, tutorSide };
}

describe("a room's limits", () => {
  it("count a user's messages in the room across their sockets and instances: a reconnect starts nothing again", async () => {
    const { bookingId, learner, learnerSide, tutorSide } = await inTheRoom(a);
    for (let index = 0; index < 12; index += 1) learnerSide.send(candidate(index));
    for (let index = 0; index < 12; index += 1) await tutorSide.next((message) => message.type === "candidate");
    learnerSide.socket.close();
    await tutorSide.next(isPeer(learner.id, false));

    // Back on the other instance: 8 more are taken, the next closes the socket.
    const again = join(b, bookingId, learner.cookie);
    await again.next(isWelcome);
    for (let index = 12; index < 24; index += 1) again.send(candidate(index));
    expect(await again.closed).toEqual({ code: ROOM_CLOSE_CODES.tooManyMessages, reason: "Too many messages." });
    expect((await stored(bookingId, learner.id, "candidate")).rows).toBe(20);
  });

  it("key the room by the booking as stored: its id in capitals joins the same room, as a reload would", async () => {
    const { bookingId, learner, tutor, learnerSide, tutorSide } = await inTheRoom(a);
    const shouted = join(a, bookingId.toUpperCase(), learner.cookie);
    const { connectionId } = await shouted.next(isWelcome);
    // The earlier socket is replaced, as by a reload; the new one is in the call.
    expect((await learnerSide.closed).code).toBe(ROOM_CLOSE_CODES.replaced);
    await shouted.next(isPeer(tutor.id, true));
    tutorSide.send({ type: "description", description: { type: "offer", sdp: "v=0\r\n" } });
    expect(await shouted.next((message) => message.type === "description")).toMatchObject({ from: tutor.id });
    shouted.send({ type: "chat", text: "Saya di sini." });
    expect(await tutorSide.next((message) => message.type === "chat")).toMatchObject({
      message: { from: learner.id, text: "Saya di sini." },
    });
    expect(
      await t.db.select({ id: callMessage.id }).from(callMessage).where(eq(callMessage.bookingId, bookingId)),
    ).toHaveLength(1);
    await tutorSide.next(
      (message) =>
        message.type === "peer" &&
        message.userId === learner.id &&
        message.present &&
        message.connectionId === connectionId,
    );
  });

  it("cap the chat a user keeps in a room: past it a message is refused with a reason and nothing is stored", async () => {
    const { bookingId, learner, learnerSide } = await inTheRoom(a);
    const line = "a".repeat(900);
    for (let index = 0; index < 3; index += 1) learnerSide.send({ type: "chat", text: line });
    expect(await learnerSide.next(isError)).toEqual({
      type: "error",
      message: "This session's chat is full: no more messages can be kept for it.",
    });
    const kept = await t.db
      .select({ text: callMessage.text })
      .from(callMessage)
      .where(and(eq(callMessage.bookingId, bookingId), eq(callMessage.senderId, learner.id)));
    expect(kept).toHaveLength(2);
    // The socket stays: the call goes on.
    learnerSide.send({ type: "description", description: { type: "offer", sdp: "v=0\r\n" } });
    await expect.poll(async () => (await stored(bookingId, learner.id, "description")).rows).toBe(1);
  });

  it("cap the bytes of signals a user keeps in a room: past it a signal is refused and nothing is stored", async () => {
    const { bookingId, learner, learnerSide } = await inTheRoom(b);
    const sdp = `v=0\r\n${"a".repeat(3_000)}`;
    for (let index = 0; index < 3; index += 1) {
      learnerSide.send({ type: "description", description: { type: "offer", sdp } });
    }
    expect(await learnerSide.next(isError)).toEqual({
      type: "error",
      message: "This call has sent far more than a call needs: nothing more is relayed.",
    });
    const { rows, bytes } = await stored(bookingId, learner.id, "description");
    expect(rows).toBe(2);
    expect(bytes).toBeLessThanOrEqual(roomLimits.signalBytes);
  });

  it("close a socket that sends a frame over the limit (1009), or a message in too many fragments (1008)", async () => {
    const { learnerSide, tutorSide } = await inTheRoom(a);
    learnerSide.socket.send("x".repeat(ROOM_MAX_PAYLOAD + 1));
    expect((await learnerSide.closed).code).toBe(1009);

    for (let index = 0; index < 17; index += 1) tutorSide.socket.send("x", { fin: false });
    expect((await tutorSide.closed).code).toBe(1008);
  });
});
