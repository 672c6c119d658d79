import type { Logger } from "pino";
import type { Notifications } from "#server/db/notifications";
import { ROOM_ACCESS_CHANNEL } from "#server/db/room-access";
import { ROOM_CLOSE_CODES } from "./calls.contract";
import type { Side } from "./calls.rooms";

/** How often each instance checks every room socket it holds again, notified or not. */
export const ROOM_ACCESS_CHECK_MS = 60_000;

/** The reason given with ROOM_CLOSE_CODES.signedOut. */
export const SIGNED_OUT_REASON = "You were signed out: sign in again to come back.";

/** Whether a side may stay in its room: until when (the room closes), or how to close it and why. */
export type Verdict = { closesAt: Date } | { code: number; reason: string };

/**
 * Keeps a room's sockets to what their users may still do (docs/decisions/061). A socket is let in
 * when it opens; after that, each is checked again (its session, its user's role, its booking):
 * at once when any instance announces a change of that user or booking on ROOM_ACCESS_CHANNEL (a
 * sign-out, a password change, a role change, a deleted account, a cancelled or moved booking),
 * every `everyMs` for what no notification tells (a session expired or deleted by hand), and after
 * the listening connection comes back (notifications sent meanwhile are lost). A side that may no
 * longer stay is closed with the code that says why; one that may is closed when its room closes.
 */
export function createRoomAccess(deps: {
  notifications: Notifications;
  logger: Logger;
  check: (side: Side) => Promise<Verdict>;
  everyMs?: number;
}) {
  const { notifications, logger, check } = deps;
  const everyMs = deps.everyMs ?? ROOM_ACCESS_CHECK_MS;
  /** Each side watched, with the timer that closes it when its room closes. */
  const watched = new Map<Side, NodeJS.Timeout>();
  let subscribed: Promise<unknown> | null = null;
  let schedule: NodeJS.Timeout | undefined;

  function closeAt(side: Side, closesAt: Date) {
    clearTimeout(watched.get(side));
    const timer = setTimeout(
      () => side.close(ROOM_CLOSE_CODES.roomClosed, "The session's room has closed."),
      Math.max(0, closesAt.getTime() - Date.now()),
    );
    timer.unref();
    watched.set(side, timer);
  }

  async function recheck(side: Side): Promise<void> {
    let verdict: Verdict;
    try {
      verdict = await check(side);
    } catch (error) {
      logger.warn({ err: error, bookingId: side.bookingId }, "a room socket's access could not be checked");
      return;
    }
    if (!watched.has(side)) return;
    if ("code" in verdict) side.close(verdict.code, verdict.reason);
    else closeAt(side, verdict.closesAt);
  }

  const recheckAll = () => {
    for (const side of [...watched.keys()]) void recheck(side);
  };

  function onNotification(payload: string) {
    let change: { u?: unknown; b?: unknown };
    try {
      change = JSON.parse(payload) as { u?: unknown; b?: unknown };
    } catch {
      return;
    }
    for (const side of [...watched.keys()]) {
      if (side.userId === change.u || side.bookingId === change.b) void recheck(side);
    }
  }

  return {
    /**
     * Watches a side that has joined its room until `forget`: closed when its room closes
     * (`closesAt`, as its admission found it), or as soon as it may no longer stay. Checks it once
     * more when the notifications are heard: a change between its admission and now was not.
     */
    async watch(side: Side, closesAt: Date): Promise<void> {
      closeAt(side, closesAt);
      subscribed ??= notifications.subscribe(ROOM_ACCESS_CHANNEL, onNotification).then(() => {
        notifications.onReconnect(recheckAll);
      });
      await subscribed;
      if (!watched.has(side)) return;
      if (!schedule) {
        schedule = setInterval(recheckAll, everyMs);
        schedule.unref();
      }
      await recheck(side);
    },

    /** Stops watching a side (its socket has closed). */
    forget(side: Side): void {
      clearTimeout(watched.get(side));
      watched.delete(side);
      if (watched.size === 0) {
        clearInterval(schedule);
        schedule = undefined;
      }
    },
  };
}

export type RoomAccess = ReturnType<typeof createRoomAccess>;
