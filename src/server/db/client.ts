import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Logger } from "pino";
import * as schema from "./schema";

/** Drizzle over the pool; `$client` is the pool itself, for the few statements sent as written. */
export type Database = NodePgDatabase<typeof schema> & { $client: pg.Pool };

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
  // An idle client losing its server (a database restart) emits here; without a listener Node
  // would treat it as an uncaught error and end the process.
  pool.on("error", (error) => logger.warn({ err: error }, "database connection lost"));
  // A client checked out of the pool (a transaction) that loses its server emits on the client, not
  // the pool: its query fails with the error, and this listener keeps the process alive.
  pool.on("connect", (client) => {
    client.on("error", (error) => logger.warn({ err: error }, "database connection lost during a query"));
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
