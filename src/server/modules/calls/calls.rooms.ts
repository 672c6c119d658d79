import type { Logger } from "pino";
import type { Notifications } from "#server/db/notifications";
import { type CallClientMessage, type CallServerMessage, type ChatMessage, ROOM_CLOSE_CODES } from "./calls.contract";
import {
  CALL_ROOM_CHANNEL,
  type CallsRepository,
  type Refusal,
  type SignalRow,
  type StoredSignal,
} from "./calls.repository";

/** A side of a room on this instance: one WebSocket. */
export interface Side {
  /** The booking's id as stored: another spelling of it joins the same room. */
  bookingId: string;
  userId: string;
  /** The session the socket was opened with: what it sends is refused once that session has ended. */
  sessionId: string;
  connectionId: string;
  send(message: CallServerMessage): void;
  close(code: number, reason: string): void;
}

/** The ids of a room's signals this instance remembers delivering: enough for a call's negotiation and chat. */
const DELIVERED_REMEMBERED = 1000;
/**
 * How far before the listener's connection was lost a catch-up reads: the database's clock stamps
 * the signals, this instance's clock the loss, and the two may differ a little.
 */
const CATCH_UP_SLACK_MS = 10_000;

/** Closed because the same user opened the room elsewhere (an application's own close code). */
export const REPLACED_CLOSE_CODE = ROOM_CLOSE_CODES.replaced;

/**
 * The rooms with a side on this instance, and the relay between the sides of each. Whatever a side
 * sends goes through PostgreSQL (a call_signal row and a notification naming it), so the other side
 * hears it whichever instance holds its socket; each instance with a side of the room reads the row
 * and passes it on. A room's signals are delivered in the order they were sent: an offer before the
 * candidates that follow it.
 *
 * A signal sent while this instance's LISTEN connection was down is not lost: once it is back, each
 * room held here reads what was stored meanwhile and delivers what it had not (catchUp).
 *
 * Presence needs no table: a side that joins says `hello`, every side present answers `here`, and a
 * side that leaves says `bye`. A second socket of the same user (a reload, another tab) replaces the
 * first, which is told and closed.
 */
export function createRooms(deps: RoomsDeps) {
  const held: Held = {
    rooms: new Map(),
    delivering: new Map(),
    sending: new WeakMap(),
    delivered: new Map(),
    subscribed: null,
  };
  return {
    ...presence(deps, held),
    ...relaying(deps, held),
  };
}

interface RoomsDeps {
  calls: CallsRepository;
  notifications: Notifications;
  logger: Logger;
  met: (bookingId: string, userIds: [string, string]) => void;
}

/** What this instance holds of its rooms. */
interface Held {
  rooms: Map<string, Set<Side>>;
  /** Per room, the delivery in progress: the next waits for it, so signals keep their order. */
  delivering: Map<string, Promise<void>>;
  /** Per side, its own messages in the order it sent them. */
  sending: WeakMap<Side, Promise<unknown>>;
  /** Per room, the ids of the signals delivered lately, oldest first: none is delivered twice. */
  delivered: Map<string, Set<number>>;
  subscribed: Promise<unknown> | null;
}

/** A presence signal (hello, here, bye) a side sends, after what it sent before. */
function say(calls: CallsRepository, held: Held, side: Side, kind: SignalRow["kind"], body: unknown) {
  const previous = held.sending.get(side) ?? Promise.resolve();
  const next = previous
    .catch(() => undefined)
    .then(() =>
      calls.send({ bookingId: side.bookingId, senderId: side.userId, connectionId: side.connectionId, kind, body }),
    );
  held.sending.set(side, next);
  return next;
}

/** A stored signal, as one side of its room hears it (`answer`: says `here` back to a hello). */
function deliverTo(side: Side, row: SignalRow, met: RoomsDeps["met"], answer: () => void) {
  const own = side.connectionId === row.connectionId;
  switch (row.kind) {
    case "hello":
      if (own) break;
      if (side.userId === row.senderId) {
        side.send({ type: "replaced" });
        side.close(REPLACED_CLOSE_CODE, "The room was opened elsewhere.");
        break;
      }
      side.send({ type: "peer", userId: row.senderId, connectionId: row.connectionId, present: true });
      met(row.bookingId, [row.senderId, side.userId]);
      answer();
      break;
    case "here":
      if (!own && side.userId !== row.senderId) {
        side.send({ type: "peer", userId: row.senderId, connectionId: row.connectionId, present: true });
      }
      break;
    case "bye":
      if (!own && side.userId !== row.senderId) {
        side.send({ type: "peer", userId: row.senderId, connectionId: row.connectionId, present: false });
      }
      break;
    case "description":
    case "candidate":
      if (!own && side.userId !== row.senderId) {
        side.send({
          type: row.kind,
          from: row.senderId,
          connectionId: row.connectionId,
          ...(row.body as object),
        } as CallServerMessage);
      }
      break;
    case "chat":
      side.send({ type: "chat", message: row.body as ChatMessage });
      break;
    case "ended":
      side.send({ type: "ended" });
      break;
  }
}

/** The delivery of stored signals to the rooms' sides here: on a notification, and after a lost connection. */
function delivery(deps: RoomsDeps, held: Held) {
  const { calls, logger } = deps;
  const { rooms, delivering, delivered } = held;
  /** Delivers a stored signal to the room's sides here, unless it was already. */
  function deliverOnce(row: StoredSignal) {
    let ids = delivered.get(row.bookingId);
    if (!ids) {
      ids = new Set();
      delivered.set(row.bookingId, ids);
    }
    if (ids.has(row.id)) return;
    ids.add(row.id);
    if (ids.size > DELIVERED_REMEMBERED) ids.delete(ids.values().next().value!);
    deliver(row);
  }

  /** Runs `work` for the room after its deliveries in progress, so its signals keep their order. */
  function inTurn(bookingId: string, work: () => Promise<void>) {
    const previous = delivering.get(bookingId) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => logger.warn({ err: error, bookingId }, "a room's signal was not delivered"));
    delivering.set(bookingId, next);
    void next.then(() => {
      if (delivering.get(bookingId) === next) delivering.delete(bookingId);
    });
  }

  /** After the LISTEN connection was lost: each room held here gets what was sent meanwhile. */
  function catchUp(lostAt: Date) {
    const since = new Date(lostAt.getTime() - CATCH_UP_SLACK_MS);
    for (const bookingId of rooms.keys()) {
      inTurn(bookingId, async () => {
        for (const row of await calls.signalsSince(bookingId, since)) deliverOnce(row);
      });
    }
  }

  function deliver(row: SignalRow) {
    const sides = rooms.get(row.bookingId);
    if (!sides) return;
    for (const side of [...sides]) {
      deliverTo(side, row, deps.met, () => void say(calls, held, side, "here", {}));
    }
  }

  function onNotification(payload: string) {
    let note: { b: string; i: number };
    try {
      note = JSON.parse(payload) as { b: string; i: number };
    } catch {
      return;
    }
    if (!rooms.has(note.b)) return;
    inTurn(note.b, async () => {
      const row = await calls.signal(note.i);
      if (row) deliverOnce(row);
    });
  }

  return { catchUp, onNotification };
}

/** Who is in which room here: joining, leaving, counting. */
function presence(deps: RoomsDeps, held: Held) {
  const { calls, notifications } = deps;
  const { rooms, delivered } = held;
  const { catchUp, onNotification } = delivery(deps, held);
  return {
    /** Puts a side in its room, once this instance hears the room's signals, and says hello. */
    async join(side: Side): Promise<void> {
      held.subscribed ??= notifications.subscribe(CALL_ROOM_CHANNEL, onNotification).then(() => {
        notifications.onReconnect(catchUp);
      });
      await held.subscribed;
      let sides = rooms.get(side.bookingId);
      if (!sides) {
        sides = new Set();
        rooms.set(side.bookingId, sides);
      }
      sides.add(side);
      side.send({ type: "welcome", connectionId: side.connectionId });
      await say(calls, held, side, "hello", {});
    },

    /** Takes a side out of its room and says goodbye for it. */
    async leave(side: Side): Promise<void> {
      const sides = rooms.get(side.bookingId);
      if (!sides?.delete(side)) return;
      if (sides.size === 0) {
        rooms.delete(side.bookingId);
        delivered.delete(side.bookingId);
      }
      await say(calls, held, side, "bye", {});
    },

    /** How many sides this instance holds, per room (for tests and the health of a room). */
    sidesIn: (bookingId: string) => rooms.get(bookingId)?.size ?? 0,
  };
}

/** What the sides send into their rooms, and the end of a session announced to them. */
function relaying(deps: RoomsDeps, held: Held) {
  const { calls } = deps;
  return {
    /**
     * What a side sent: relayed to the room (a chat message kept with the booking first), unless
     * refused (calls.repository.ts's limits): answers why it was not.
     */
    async receive(side: Side, message: CallClientMessage): Promise<Refusal | null> {
      const previous = held.sending.get(side) ?? Promise.resolve();
      const from = { bookingId: side.bookingId, senderId: side.userId, connectionId: side.connectionId };
      const next = previous
        .catch(() => undefined)
        .then(() => {
          if (message.type === "chat") return calls.chat(from, message.text, side.sessionId);
          const { type, ...body } = message;
          return calls.sendFromSide({ ...from, kind: type, body }, side.sessionId);
        });
      held.sending.set(side, next);
      return next;
    },

    /** Tells every side of the room, on any instance, that the session has ended. */
    announceEnded: (bookingId: string, senderId: string, connectionId: string) =>
      calls.send({ bookingId, senderId, connectionId, kind: "ended", body: {} }),
  };
}

export type Rooms = ReturnType<typeof createRooms>;
