import type pg from "pg";
import { QUEUE_SCHEMA } from "./install";

/** One queue's line in /healthz?detail: its jobs waiting, running and failed, and how long the oldest has waited. */
export interface QueueLine {
  name: string;
  /** Jobs waiting to run: new, or waiting for their next try. */
  queued: number;
  active: number;
  /** Jobs that used up their tries, counted for a week, until they are archived (queue.ts). */
  failed: number;
  /** Seconds since the oldest waiting job was sent; 0 when none waits. */
  oldestQueuedSeconds: number;
}

/**
 * Every queue's line, in one statement: the queues pg-boss knows (its own internal one left out),
 * each with its jobs counted by state. Completed jobs are archived within the hour, so the scan
 * stays small however long the app runs.
 */
export async function queueLines(pool: pg.Pool): Promise<QueueLine[]> {
  const { rows } = await pool.query<QueueLine>(
    `select q.name,
       count(j.id) filter (where j.state in ('created', 'retry'))::int as queued,
       count(j.id) filter (where j.state = 'active')::int as active,
       count(j.id) filter (where j.state = 'failed')::int as failed,
       coalesce(floor(extract(epoch from now() - min(j.created_on) filter (where j.state in ('created', 'retry')))), 0)::int
         as "oldestQueuedSeconds"
     from ${QUEUE_SCHEMA}.queue q
     left join ${QUEUE_SCHEMA}.job j on j.name = q.name and j.state in ('created', 'retry', 'active', 'failed')
     where q.name not like '\\_\\_pgboss\\_\\_%'
     group by q.name
     order by q.name`,
  );
  return rows;
}
