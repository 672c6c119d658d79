import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { adminQuery, withDatabase } from "#tests/db-global-setup";
import { migrateDatabase } from "./migrate";

const baseUrl = process.env.TEST_DATABASE_URL!;
const name = `jalan_migrate_${randomBytes(4).toString("hex")}`;
const url = withDatabase(baseUrl, name);
await adminQuery(baseUrl, `create database "${name}"`);
afterAll(() => adminQuery(baseUrl, `drop database if exists "${name}" with (force)`));

describe("migrateDatabase", () => {
  it("lets several instances start at once on an empty database", async () => {
    await Promise.all([migrateDatabase(url), migrateDatabase(url), migrateDatabase(url)]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const tables = await client.query(
      "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
    );
    const applied = await client.query("select count(*)::int as count from drizzle.__drizzle_migrations");
    await client.end();
    expect(tables.rows.map((row) => row.table_name)).toEqual([
      "account",
      "answer",
      "contact_message",
      "daily_goal_change",
      "day_completion",
      "mail_outbox",
      "rate_limit",
      "request_limit",
      "review_card",
      "review_log",
      "review_reminder",
      "session",
      "stored_file",
      "task_progress",
      "tutor_feedback",
      "two_factor",
      "user",
      "verification",
    ]);
    expect(applied.rows[0].count).toBeGreaterThan(0);
  });
});
