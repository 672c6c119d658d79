import { sql } from "drizzle-orm";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { Logger } from "pino";
import type { Queryable } from "#server/db/client";
import type { Notifications } from "#server/db/notifications";
import type { AppEnv } from "#server/http/context";
import type { QueueChanged } from "./speaking.contract";

/** The channel on which a change of the tutors' queue is announced to every instance. */
export const SPEAKING_QUEUE_CHANNEL = "speaking_queue";
/**
 * How often an open stream sends a comment: proxies and load balancers close a connection that says
 * nothing for a minute or so (nginx's default read timeout is 60 s).
 */
export const QUEUE_HEARTBEAT_MS = 25_000;
const HEARTBEAT = ": heartbeat\n\n";
const CHANGED: QueueChanged = "changed";

/**
 * Announces on SPEAKING_QUEUE_CHANNEL that the tutors' queue changed. In a transaction (the handler's
 * of speaking.submitted or speaking.submission-reviewed), it goes out when that commits, never if it
 * rolls back.
 */
export async function queueChanged(q: Queryable): Promise<void> {
  await q.execute(sql`select pg_notify(${SPEAKING_QUEUE_CHANNEL}, '')`);
}

/**
 * One open stream's view of the changes: whether one came since it last looked. Changes that come
 * while the stream is still writing the last one make one message: each says only "read again".
 */
function watcher(onStop: () => void) {
  let changed = false;
  let stopped = false;
  let wake: (() => void) | null = null;
  return {
    tell() {
      changed = true;
      wake?.();
    },
    /** Resolves true at the next change (at once if one came meanwhile), false once stopped. */
    async next(): Promise<boolean> {
      while (!changed && !stopped) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      wake = null;
      changed = false;
      return !stopped;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      wake?.();
      onStop();
    },
  };
}

type Watcher = ReturnType<typeof watcher>;

/**
 * The tutors' queue as it changes, pushed to the staff whose queue is open (docs/decisions/076): a
 * server-sent events stream per open page, each sent a message when any instance announces a change
 * on SPEAKING_QUEUE_CHANNEL, heard through this instance's LISTEN connection (db/notifications.ts),
 * and when that connection comes back after a loss (what was announced meanwhile was not heard).
 */
export function createQueueChanges(deps: {
  notifications: Pick<Notifications, "subscribe" | "onReconnect">;
  logger?: Pick<Logger, "warn">;
  heartbeatMs?: number;
}) {
  const { notifications, logger, heartbeatMs = QUEUE_HEARTBEAT_MS } = deps;
  const watchers = new Set<Watcher>();
  let subscribed: Promise<unknown> | null = null;
  let closed = false;
  const tellAll = () => {
    for (const each of watchers) each.tell();
  };

  /** Listens on the channel, once per instance; a failed try is tried again by the next stream. */
  async function listening(): Promise<void> {
    subscribed ??= notifications.subscribe(SPEAKING_QUEUE_CHANNEL, tellAll).then(() => {
      notifications.onReconnect(tellAll);
    });
    try {
      await subscribed;
    } catch (error) {
      subscribed = null;
      throw error;
    }
  }

  return {
    /**
     * GET /queue/changes, for staff (the route checks): a stream that answers once this instance
     * listens, so a change committed after the browser's `open` is always sent; a message ("changed")
     * at each change, a comment every `heartbeatMs`. It ends when the browser goes, and at once when
     * this instance cannot listen or shuts down: the browser's EventSource then connects again.
     */
    async stream(c: Context<AppEnv>): Promise<Response> {
      const watching = watcher(() => watchers.delete(watching));
      watchers.add(watching);
      try {
        await listening();
      } catch (error) {
        logger?.warn(
          { err: error },
          "the tutors' queue cannot be listened to; its stream ends for the browser to retry",
        );
        watching.stop();
      }
      if (closed) watching.stop();
      c.header("X-Accel-Buffering", "no");
      return streamSSE(c, async (stream) => {
        stream.onAbort(() => watching.stop());
        const heartbeat = setInterval(() => void stream.write(HEARTBEAT), heartbeatMs);
        try {
          while (await watching.next()) await stream.writeSSE({ data: CHANGED });
        } finally {
          clearInterval(heartbeat);
          watching.stop();
        }
      });
    },

    /** Ends every open stream, and any opened from now (the instance shuts down). */
    close() {
      closed = true;
      for (const each of [...watchers]) each.stop();
    },

    /** How many streams this instance holds open. */
    get open(): number {
      return watchers.size;
    },
  };
}

export type QueueChanges = ReturnType<typeof createQueueChanges>;
