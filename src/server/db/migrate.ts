import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { installQueueSchema } from "#server/queue/install";
import { LOCK_KEYS } from "./locks";

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * Applies the committed SQL migrations (another folder's, in tests that stop part way), then
 * installs or upgrades the queue's tables (schema pgboss, queue/install.ts). A session-level advisory lock makes instances that start
 * together take turns: the first migrates, the others wait and then find nothing left to do.
 */
export async function migrateDatabase(url: string, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [LOCK_KEYS.migration]);
    try {
      await migrate(drizzle(client), { migrationsFolder });
      await installQueueSchema(url);
    } finally {
      await client.query("select pg_advisory_unlock($1)", [LOCK_KEYS.migration]);
    }
  } finally {
    await client.end();
  }
}
