import { randomBytes } from "node:crypto";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { adminQuery, withDatabase } from "#tests/db-global-setup";
import { MIGRATIONS_DIR, migrateDatabase } from "./migrate";

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
    const queueTables = await client.query("select version from pgboss.version");
    await client.end();
    expect(tables.rows.map((row) => row.table_name)).toEqual([
      "account",
      "answer",
      "booking",
      "booking_change",
      "booking_reminder",
      "calendar_feed",
      "call_message",
      "call_rating",
      "call_record",
      "call_signal",
      "contact_message",
      "daily_goal_change",
      "day_completion",
      "event_delivery",
      "event_outbox",
      "line_practice",
      "mail_outbox",
      "notice",
      "person",
      "quiet_day",
      "rate_limit",
      "recording",
      "request_limit",
      "review_card",
      "review_day",
      "review_log",
      "review_pin_note",
      "review_reminder",
      "session",
      "session_rating",
      "speaking_submission",
      "stored_file",
      "studio_clip",
      "studio_dialogue",
      "studio_take",
      "task_progress",
      "tutor_feedback",
      "tutor_hours",
      "two_factor",
      "user",
      "verification",
      "voice",
      "voice_consent",
    ]);
    expect(applied.rows[0].count).toBeGreaterThan(0);
    // The queue's tables (pg-boss), installed once with the migrations.
    expect(queueTables.rows).toHaveLength(1);
  });
});

/** A copy of the migrations folder holding only the first `count` migrations. */
async function firstMigrations(count: number): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), "jalan-migrations-"));
  await mkdir(path.join(folder, "meta"));
  const journal = JSON.parse(await readFile(path.join(MIGRATIONS_DIR, "meta", "_journal.json"), "utf8"));
  journal.entries = journal.entries.slice(0, count);
  await writeFile(path.join(folder, "meta", "_journal.json"), JSON.stringify(journal));
  for (const entry of journal.entries) {
    await copyFile(path.join(MIGRATIONS_DIR, `${entry.tag}.sql`), path.join(folder, `${entry.tag}.sql`));
  }
  return folder;
}

describe("migration 0007 (days of reviews)", () => {
  const older = `jalan_migrate_${randomBytes(4).toString("hex")}`;
  const olderUrl = withDatabase(baseUrl, older);
  afterAll(() => adminQuery(baseUrl, `drop database if exists "${older}" with (force)`));

  it("gives stored zones their canonical spelling and keeps the log's days, each review counting at most two minutes", async () => {
    await adminQuery(baseUrl, `create database "${older}"`);
    const folder = await firstMigrations(7);
    try {
      await migrateDatabase(olderUrl, folder);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
    const client = new pg.Client({ connectionString: olderUrl });
    await client.connect();
    try {
      await client.query(
        `insert into "user" (id, name, email, time_zone) values ('learner', 'L', 'l@example.com', 'asia/kuala_lumpur'),
          ('elsewhere', 'E', 'e@example.com', 'Mars/Olympus')`,
      );
      const review = (clientId: string, zone: string, date: string, durationMs: number, at: string) =>
        client.query(
          `insert into review_log (user_id, client_id, chapter_id, day_id, phrase_id, skill, given, grade, rating,
             duration_ms, reviewed_at, time_zone, local_date)
           values ('learner', $1, 'chapter-1', 'day-1', 'selamat-pagi', 'recall', '{"text":"x"}', 'right', 3, $2, $3, $4, $5)`,
          [clientId, durationMs, at, zone, date],
        );
      await review("a", "ASIA/KUALA_LUMPUR", "2027-03-01", 30_000, "2027-03-01T02:00:00Z");
      await review("b", "asia/kuala_lumpur", "2027-03-01", 600_000, "2027-03-01T03:00:00Z");
      await review("c", "Asia/Kuala_Lumpur", "2027-03-02", 4_000, "2027-03-02T02:00:00Z");

      await migrateDatabase(olderUrl);

      const zones = await client.query(`select id, time_zone from "user" order by id`);
      expect(zones.rows).toEqual([
        { id: "elsewhere", time_zone: "Mars/Olympus" },
        { id: "learner", time_zone: "Asia/Kuala_Lumpur" },
      ]);
      const logged = await client.query("select distinct time_zone from review_log");
      expect(logged.rows).toEqual([{ time_zone: "Asia/Kuala_Lumpur" }]);
      const days = await client.query(
        "select local_date, time_zone, reviews, counted_ms::int, last_at from review_day order by local_date",
      );
      expect(days.rows).toEqual([
        {
          local_date: "2027-03-01",
          time_zone: "Asia/Kuala_Lumpur",
          reviews: 2,
          counted_ms: 150_000,
          last_at: new Date("2027-03-01T03:00:00Z"),
        },
        {
          local_date: "2027-03-02",
          time_zone: "Asia/Kuala_Lumpur",
          reviews: 1,
          counted_ms: 4_000,
          last_at: new Date("2027-03-02T02:00:00Z"),
        },
      ]);
    } finally {
      await client.end();
    }
  });
});
