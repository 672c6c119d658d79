import { createAuth } from "#server/auth/auth";
import { connectDatabase } from "#server/db/client";
import { openDatabaseForTool } from "#server/db/open";
import { EnvError, loadEnv } from "#server/env";
import { createLogger } from "#server/logger";
import { createMailerFromEnv } from "#server/mail/mailer";

/** Runs `work` with the app's database and auth, then releases them; prints errors as one line. */
export async function runTool(work: (context: ToolContext) => Promise<void>): Promise<void> {
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    console.error(error instanceof EnvError ? error.message : error);
    process.exit(1);
  }
  const logger = createLogger(process.env.LOG_LEVEL ?? "warn");
  const opened = await openDatabaseForTool(env, logger);
  const database = connectDatabase(opened.url, logger, { max: 2 });
  const mailer = createMailerFromEnv(env, database.db, logger);
  const auth = createAuth({ db: database.db, env, mailer, logger });
  let failed = false;
  try {
    await work({ env, db: database.db, auth });
  } catch (error) {
    failed = true;
    console.error(error instanceof Error ? error.message : error);
  } finally {
    await mailer.close();
    await database.close();
    await opened.stop();
  }
  process.exit(failed ? 1 : 0);
}

export interface ToolContext {
  env: ReturnType<typeof loadEnv>;
  db: ReturnType<typeof connectDatabase>["db"];
  auth: ReturnType<typeof createAuth>;
}
