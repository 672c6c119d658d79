import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Logger } from "pino";
import * as schema from "./schema";

/** Drizzle over the pool; `$client` is the pool itself, for the few statements sent as written. */
export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

/** An open transaction: what `db.transaction` hands its callback. */
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * Where a repository runs a statement: the pool, or a caller's transaction. A service method that
 * takes a Queryable joins its caller's transaction, so another module's write and its own commit
 * together (a tutor's note and its pin).
 */
export type Queryable = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

export function connectDatabase(url: string, logger: Logger, options: { max?: number } = {}): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 20,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // A client that loses its server (a database restart) emits 'error' on itself, idle or checked
  // out (a transaction, whose query fails with the error), and, when idle, on the pool as well.
  // Without a listener Node would treat either as an uncaught error and end the process. The
  // client's listener logs it, once: the pool's error carries the whole client, which stays out.
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    client.on("error", (error: Error & { code?: string }) =>
      logger.warn({ code: error.code, reason: error.message }, "database connection lost"),
    );
  });
  const db = drizzle(pool, { schema, casing: "snake_case" });
  let closed = false;
  return {
    db,
    pool,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}

/** True when the database answers within the timeout. */
export async function databaseAnswers(pool: pg.Pool, timeoutMs = 2_000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const query = pool.query("select 1").then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
