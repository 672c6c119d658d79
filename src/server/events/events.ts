import type { z } from "zod";
import type { Queryable, Transaction } from "#server/db/client";

/**
 * A kind of event: its name ("<module>.<what happened>") and the zod schema of its payload. A module
 * declares its events in its contract (zod only) and lists them in its face's `emits`; a payload is
 * parsed with the schema when it is read back, before any handler sees it.
 */
export interface EventType<Payload = unknown> {
  name: string;
  payload: z.ZodType<Payload>;
}

/** Where and when the event happened, for a handler that needs it. */
export interface EventMeta {
  eventId: string;
  emittedAt: Date;
}

/**
 * What a module does when an event happens, in a transaction of its own that also marks the event
 * handled: its writes and the mark commit together or not at all, so the work is done once. A throw
 * rolls both back and the event is tried again later (EventOutbox).
 */
export interface EventHandler {
  event: EventType;
  run: (payload: unknown, tx: Transaction, meta: EventMeta) => Promise<void>;
}

/** A handler of `event`, typed by its payload; a face lists it in `handles`. */
export function on<Payload>(
  event: EventType<Payload>,
  run: (payload: Payload, tx: Transaction, meta: EventMeta) => Promise<void>,
): EventHandler {
  return { event, run: (payload, tx, meta) => run(payload as Payload, tx, meta) };
}

/** What an emitting module receives: records an event in the caller's transaction (EventOutbox.emit). */
export interface Emitter {
  emit<Payload>(q: Queryable, event: EventType<Payload>, payload: Payload): Promise<void>;
}
