import { sql } from "drizzle-orm";
import type { Queryable } from "./client";

/**
 * The channel on which a change of who may be in a session's room is announced: a session signed
 * out or revoked, a role changed, an account deleted (`u`: the user's id), a booking cancelled or
 * moved (`b`: the booking's id). Every instance listens, and checks its room sockets of that user
 * or booking again at once (src/server/modules/calls/calls.access.ts).
 */
export const ROOM_ACCESS_CHANNEL = "room_access";

export type RoomAccessChange = { userId: string } | { bookingId: string };

/**
 * Announces the change on ROOM_ACCESS_CHANNEL. In a transaction (`q` a Transaction), the notification
 * goes out when it commits, and never if it rolls back.
 */
export async function roomAccessChanged(q: Queryable, change: RoomAccessChange): Promise<void> {
  const payload = JSON.stringify("userId" in change ? { u: change.userId } : { b: change.bookingId });
  await q.execute(sql`select pg_notify(${ROOM_ACCESS_CHANNEL}, ${payload})`);
}
