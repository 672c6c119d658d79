import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../src/server/db/embedded";
import { migrateDatabase } from "../src/server/db/migrate";
import { createLogger } from "../src/server/logger";

declare module "vitest" {
  export interface ProvidedContext {
    templateDatabaseUrl: string;
  }
}

/**
 * One PostgreSQL for the whole run: the PostgreSQL server at DATABASE_URL when it is set, else an
 * embedded one in a temporary directory. A migrated template database is made once; each test file
 * then copies it (tests/setup-db.ts), so files never see each other's rows.
 */
export default async function setup(project: TestProject) {
  const logger = createLogger("warn");
  let dataDir: string | null = null;
  let stopEmbedded: (() => Promise<void>) | null = null;
  let serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-test-pg-"));
    const embedded = await startEmbeddedPostgres(dataDir, logger);
    serverUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  const templateName = `jalan_template_${process.pid}`;
  const templateUrl = withDatabase(serverUrl, templateName);
  await adminQuery(serverUrl, `drop database if exists "${templateName}"`);
  await adminQuery(serverUrl, `create database "${templateName}"`);
  await migrateDatabase(templateUrl);
  project.provide("templateDatabaseUrl", templateUrl);

  return async () => {
    await adminQuery(serverUrl, `drop database if exists "${templateName}" with (force)`);
    await stopEmbedded?.();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
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
