import type { Logger } from "pino";
import type { Env } from "#server/env";
import { runningEmbeddedPostgres, startEmbeddedPostgres } from "./embedded";
import { migrateDatabase } from "./migrate";

/**
 * The database for a command-line tool: DATABASE_URL, else the embedded server a running app
 * already started on DATA_DIR, else an embedded server started (and stopped) just for the tool.
 */
export async function openDatabaseForTool(env: Env, logger: Logger): Promise<{ url: string; stop(): Promise<void> }> {
  const noop = async () => undefined;
  if (env.DATABASE_URL) {
    await migrateDatabase(env.DATABASE_URL);
    return { url: env.DATABASE_URL, stop: noop };
  }
  const running = await runningEmbeddedPostgres(env.DATA_DIR);
  if (running) return { url: running, stop: noop };
  const embedded = await startEmbeddedPostgres(env.DATA_DIR, logger);
  await migrateDatabase(embedded.url);
  return embedded;
}
