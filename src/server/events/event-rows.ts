import { and, desc, eq, gte, isNull, lt, sql } from "drizzle-orm";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { eventDelivery, eventOutbox } from "#server/db/schema";

/** The channel an emitting transaction notifies on commit: every instance's dispatcher wakes up. */
export const EVENTS_CHANNEL = "event_outbox";

/** A claimed (event, handler) pair, with what the handler needs of the event. */
export interface ClaimedDelivery {
  eventId: string;
  handler: string;
  attempts: number;
  name: string;
  payload: unknown;
  emittedAt: Date;
}

/*
 * The rows of the event outbox (events.tables.ts): this file alone queries them. Each function
 * takes the database, or the transaction it runs in.
 */

const key = (eventId: string, handler: string) =>
  and(eq(eventDelivery.eventId, eventId), eq(eventDelivery.handler, handler));

/**
 * The event and one delivery per handler, and the wake-up sent when the caller's transaction
 * commits: one statement.
 */
export async function insertEvent(
  q: Queryable,
  name: string,
  payload: unknown,
  handlers: readonly string[],
): Promise<void> {
  await q.execute(sql`
    with event as (
      insert into ${eventOutbox} (name, payload) values (${name}, ${JSON.stringify(payload)}::jsonb) returning id
    ), deliveries as (
      insert into ${eventDelivery} (event_id, handler)
      select event.id, handler from event, unnest(${sql.param(handlers)}::text[]) as handler
    )
    select pg_notify(${EVENTS_CHANNEL}, '')`);
}

/**
 * Claims up to `batch` waiting deliveries of these handlers for `claimSeconds`, oldest first:
 * rows another dispatcher holds are skipped (`for update skip locked`), each claim counts as an
 * attempt, and a pair tried `maxAttempts` times is left alone.
 */
export async function claimDeliveries(
  db: Database,
  options: { handlers: readonly string[]; batch: number; claimSeconds: number; maxAttempts: number },
): Promise<ClaimedDelivery[]> {
  const { handlers, batch, claimSeconds, maxAttempts } = options;
  const result = await db.execute<{
    event_id: string;
    handler: string;
    attempts: number;
    name: string;
    payload: unknown;
    created_at: Date | string;
  }>(sql`
    with claimed as (
      update ${eventDelivery} as d
      set claimed_until = now() + make_interval(secs => ${claimSeconds}), attempts = d.attempts + 1
      where (d.event_id, d.handler) in (
        select event_id, handler from ${eventDelivery}
        where delivered_at is null and attempts < ${maxAttempts}
          and (claimed_until is null or claimed_until < now())
          and handler = any(${sql.param(handlers)}::text[])
        order by created_at
        limit ${batch}
        for update skip locked
      )
      returning d.event_id, d.handler, d.attempts
    )
    select claimed.event_id, claimed.handler, claimed.attempts, e.name, e.payload, e.created_at
    from claimed join ${eventOutbox} e on e.id = claimed.event_id
    order by e.created_at`);
  return result.rows.map((row) => ({
    eventId: row.event_id,
    handler: row.handler,
    attempts: row.attempts,
    name: row.name,
    payload: row.payload,
    emittedAt: new Date(row.created_at),
  }));
}

/**
 * Locks the pair in the handler's transaction; false when it was delivered already (by a
 * dispatcher whose claim had run out, which this lock waited for).
 */
export async function lockUndelivered(tx: Transaction, eventId: string, handler: string): Promise<boolean> {
  const rows = await tx
    .select({ attempts: eventDelivery.attempts })
    .from(eventDelivery)
    .where(and(key(eventId, handler), isNull(eventDelivery.deliveredAt)))
    .for("update");
  return rows.length === 1;
}

/** Marks the pair handled, in the transaction that did the handler's work. */
export async function markDelivered(tx: Transaction, eventId: string, handler: string): Promise<void> {
  await tx
    .update(eventDelivery)
    .set({ deliveredAt: sql`now()`, claimedUntil: null, lastError: null })
    .where(key(eventId, handler));
}

/** Keeps the failure and holds the pair back for `delayMs` (the backoff). */
export async function markFailed(
  db: Database,
  eventId: string,
  handler: string,
  error: string,
  delayMs: number,
): Promise<void> {
  await db
    .update(eventDelivery)
    .set({ lastError: error, claimedUntil: sql`now() + make_interval(secs => ${delayMs / 1000})` })
    .where(key(eventId, handler));
}

/**
 * Deletes the events older than `days` whose every handler is done; an event with a handler
 * that gave up stays, with its error, for a person to read.
 */
export async function pruneEvents(db: Database, days: number): Promise<number> {
  const removed = await db
    .delete(eventOutbox)
    .where(
      and(
        lt(eventOutbox.createdAt, sql`now() - make_interval(days => ${days})`),
        sql`not exists (select 1 from ${eventDelivery} d where d.event_id = ${eventOutbox.id} and d.delivered_at is null)`,
      ),
    )
    .returning({ id: eventOutbox.id });
  return removed.length;
}

/** The newest `limit` deliveries not done, waiting or given up, with their event: what `npm run events` shows. */
export async function undoneDeliveries(db: Database, limit: number) {
  return db
    .select({
      name: eventOutbox.name,
      payload: eventOutbox.payload,
      emittedAt: eventOutbox.createdAt,
      handler: eventDelivery.handler,
      attempts: eventDelivery.attempts,
      claimedUntil: eventDelivery.claimedUntil,
      lastError: eventDelivery.lastError,
    })
    .from(eventDelivery)
    .innerJoin(eventOutbox, eq(eventOutbox.id, eventDelivery.eventId))
    .where(isNull(eventDelivery.deliveredAt))
    .orderBy(desc(eventDelivery.createdAt))
    .limit(limit);
}

/** Gives the deliveries that failed `maxAttempts` times their attempts back (once their cause is fixed); answers how many. */
export async function retryGivenUp(db: Database, maxAttempts: number): Promise<number> {
  const retried = await db
    .update(eventDelivery)
    .set({ attempts: 0, claimedUntil: null })
    .where(and(isNull(eventDelivery.deliveredAt), gte(eventDelivery.attempts, maxAttempts)))
    .returning({ eventId: eventDelivery.eventId });
  return retried.length;
}

/** How the outbox stands: deliveries waiting, given up (`maxAttempts` tried), and the oldest waiting's age. */
export async function outboxStats(
  db: Database,
  maxAttempts: number,
): Promise<{ waiting: number; failed: number; oldestWaitingSeconds: number | null }> {
  const result = await db.execute<{ waiting: number; failed: number; oldest: number | null }>(sql`
    select
      count(*) filter (where attempts < ${maxAttempts})::int as waiting,
      count(*) filter (where attempts >= ${maxAttempts})::int as failed,
      extract(epoch from now() - min(created_at) filter (where attempts < ${maxAttempts}))::float8 as oldest
    from ${eventDelivery} where delivered_at is null`);
  const row = result.rows[0]!;
  return { waiting: row.waiting, failed: row.failed, oldestWaitingSeconds: row.oldest };
}
