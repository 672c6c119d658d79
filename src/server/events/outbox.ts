import type { Logger } from "pino";
import type { Database, Queryable } from "#server/db/client";
import type { Notifications } from "#server/db/notifications";
import type { Job } from "#server/modules/module";
import {
  type ClaimedDelivery,
  claimDeliveries,
  EVENTS_CHANNEL,
  insertEvent,
  lockUndelivered,
  markDelivered,
  markFailed,
  outboxStats,
  pruneEvents,
  retryGivenUp,
  undoneDeliveries,
} from "./event-rows";
import type { Emitter, EventHandler, EventType } from "./events";

/** How often each instance looks for deliveries left waiting (a wake-up lost, a failure's backoff over). */
export const EVENTS_SWEEP_MS = 5_000;
/** How long a dispatcher has a claimed delivery to itself before another may try it (its instance died). */
const CLAIM_SECONDS = 120;
/** Deliveries claimed at once. */
const BATCH = 20;
/** After this many failed tries a delivery stays, with its last error, for a person to read. */
export const MAX_EVENT_ATTEMPTS = 8;
/** Days a handled event is kept. */
const RETENTION_DAYS = 7;
/** How often the sweep also deletes the handled events past their days. */
const PRUNE_EVERY_MS = 60 * 60_000;

/** The pause before the next try after `attempts` failed ones: 5 s, doubling, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
}

/**
 * Why a handler failed, as kept and logged: the innermost cause. A failed query's own message holds
 * its parameters (what a person wrote, their address), which must reach neither the table nor the log.
 */
export function failureOf(error: unknown): string {
  let cause = error;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  return cause instanceof Error ? cause.message : String(cause);
}

/** A module's declarations, as its face makes them (ModuleFace's `emits` and `handles`). */
export interface EventDeclarations {
  name: string;
  emits?: readonly EventType[];
  handles?: readonly EventHandler[];
}

/** The handlers of each event by name, keyed "<module>:<event>"; declarations that do not add up are refused. */
function handlerTable(faces: readonly EventDeclarations[]) {
  const emitted = new Map<string, EventType>();
  for (const face of faces) {
    for (const event of face.emits ?? []) {
      if (emitted.has(event.name)) throw new Error(`Two modules emit the event "${event.name}".`);
      emitted.set(event.name, event);
    }
  }
  const byEvent = new Map<string, string[]>();
  const byKey = new Map<string, EventHandler>();
  for (const face of faces) {
    for (const handler of face.handles ?? []) {
      const key = `${face.name}:${handler.event.name}`;
      if (!emitted.has(handler.event.name)) throw new Error(`${key} handles an event no module emits.`);
      if (byKey.has(key)) throw new Error(`${key} is handled twice by one module.`);
      byKey.set(key, handler);
      byEvent.set(handler.event.name, [...(byEvent.get(handler.event.name) ?? []), key]);
    }
  }
  return { emitted, byEvent, byKey };
}

/** What delivering needs: the database, the log, the handlers by key and the pause after a failure. */
interface Delivering {
  db: Database;
  log: Logger;
  byKey: ReadonlyMap<string, EventHandler>;
  retryDelayMs: (attempts: number) => number;
}

/**
 * Runs one claimed delivery's handler in a transaction that first locks its row (skipping it if
 * another dispatcher delivered it meanwhile) and then marks it delivered: the handler's writes and
 * the mark commit together. A failure rolls both back and holds the delivery back for its pause.
 */
async function deliver({ db, log, byKey, retryDelayMs }: Delivering, claimed: ClaimedDelivery): Promise<void> {
  const handler = byKey.get(claimed.handler)!;
  const { eventId, handler: key, attempts } = claimed;
  try {
    const payload = handler.event.payload.parse(claimed.payload);
    await db.transaction(async (tx) => {
      if (!(await lockUndelivered(tx, eventId, key))) return;
      await handler.run(payload, tx, { eventId, emittedAt: claimed.emittedAt });
      await markDelivered(tx, eventId, key);
    });
  } catch (error) {
    const message = failureOf(error);
    await markFailed(db, eventId, key, message, retryDelayMs(attempts));
    const gaveUp = attempts >= MAX_EVENT_ATTEMPTS;
    log[gaveUp ? "error" : "warn"](
      { event: claimed.name, eventId, handler: key, attempts, err: message },
      gaveUp ? "an event's handler failed for the last time" : "an event's handler failed; it will be tried again",
    );
  }
}

/** Claims and delivers batches of these handlers' deliveries until fewer than a batch wait; answers how many were tried. */
async function deliverWaiting(delivering: Delivering): Promise<number> {
  const handlers = [...delivering.byKey.keys()];
  if (handlers.length === 0) return 0;
  let tried = 0;
  for (;;) {
    const options = { handlers, batch: BATCH, claimSeconds: CLAIM_SECONDS, maxAttempts: MAX_EVENT_ATTEMPTS };
    const claimed = await claimDeliveries(delivering.db, options);
    for (const each of claimed) await deliver(delivering, each);
    tried += claimed.length;
    if (claimed.length < BATCH) return tried;
  }
}

/**
 * One pass at a time: `run` starts a pass, or asks the one under way to look again once it ends,
 * and resolves when the passes are over. A pass's error is logged; the next one tries again.
 */
function onePassAtATime(pass: () => Promise<unknown>, log: Logger) {
  let passing: Promise<void> | null = null;
  let again = false;
  let closed = false;
  return {
    run(): Promise<void> {
      if (closed) return Promise.resolve();
      if (passing) {
        again = true;
        return passing;
      }
      passing = (async () => {
        do {
          again = false;
          await pass().catch((error: unknown) => log.warn({ err: error }, "event delivery failed"));
        } while (again && !closed);
        passing = null;
      })();
      return passing;
    },
    async close() {
      closed = true;
      await passing;
    },
  };
}

/**
 * The transactional outbox of events (docs/decisions/075-events.md). `emit` writes an event and one
 * delivery per handler in the caller's transaction, and a NOTIFY that wakes every instance's
 * dispatcher once it commits. A dispatcher claims waiting deliveries (`for update skip locked`) and
 * runs each handler in a transaction of its own that also marks the delivery done, so its work
 * happens once across instances; a failure is tried again after a growing pause, and kept with its
 * error after MAX_EVENT_ATTEMPTS. The sweep job picks up what a lost wake-up or a dead instance left.
 */
export function createEventOutbox(options: {
  db: Database;
  logger: Logger;
  /** The pause after a failure (backoffMs); tests make it 0. */
  retryDelayMs?: (attempts: number) => number;
}) {
  const { db, retryDelayMs = backoffMs } = options;
  const log = options.logger.child({ component: "events" });
  let table = handlerTable([]);
  let unsubscribe: (() => void) | null = null;
  let closed = false;
  let prunedAt = 0;
  const passes = onePassAtATime(() => deliverWaiting({ db, log, byKey: table.byKey, retryDelayMs }), log);

  const emitter: Emitter = {
    async emit(q: Queryable, event, payload) {
      if (!table.emitted.has(event.name)) throw new Error(`No module declares the event "${event.name}".`);
      await insertEvent(q, event.name, event.payload.parse(payload), table.byEvent.get(event.name) ?? []);
    },
  };

  return {
    ...emitter,
    /** The modules' declarations: what each emits and handles (their faces); done once, before any emit. */
    register(faces: readonly EventDeclarations[]) {
      table = handlerTable(faces);
    },
    /** Wakes this dispatcher when any instance commits an event (this instance's LISTEN connection). */
    async listen(notifications: Pick<Notifications, "subscribe">) {
      const stop = await notifications.subscribe(EVENTS_CHANNEL, () => void passes.run());
      if (closed) stop();
      else unsubscribe = stop;
    },
    /**
     * Delivers every waiting event this instance handles, now, in turn with the wake-ups' passes (a
     * pass under way looks again once it ends): resolves once none is left to try. Tests call it to
     * deliver deterministically; the sweep job runs it.
     */
    deliverAll: () => passes.run(),
    /** The sweep, a job in the modules' shape: late deliveries, and hourly the pruning of old events. */
    job: {
      name: "events delivered",
      everyMs: EVENTS_SWEEP_MS,
      run: async () => {
        await passes.run();
        if (Date.now() - prunedAt < PRUNE_EVERY_MS) return;
        prunedAt = Date.now();
        await pruneEvents(db, RETENTION_DAYS);
      },
    } satisfies Job,
    /** Deliveries waiting, given up, and the oldest waiting's age in seconds: for health and admin pages. */
    stats: () => outboxStats(db, MAX_EVENT_ATTEMPTS),
    /** The newest deliveries not done, for a person to read (`npm run events`). */
    undone: (limit: number) => undoneDeliveries(db, limit),
    /** Tries the given-up deliveries again from their first attempt (`npm run events -- retry`). */
    retryGivenUp: () => retryGivenUp(db, MAX_EVENT_ATTEMPTS),
    /** Stops waking up and waits for the pass in progress; waiting deliveries stay for another instance. */
    async close() {
      closed = true;
      unsubscribe?.();
      await passes.close();
    },
  };
}

export type EventOutbox = ReturnType<typeof createEventOutbox>;
