import { Writable } from "node:stream";
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createLogger } from "#server/logger";
import { connectDatabase } from "./client";

describe("connectDatabase", () => {
  it("survives the server ending a connection in the middle of a transaction: the transaction fails, the pool goes on", async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const database = connectDatabase(url, createLogger("silent"));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const failed = database.db.transaction(async (tx) => {
        const [row] = (await tx.execute(sql`select pg_backend_pid() as pid`)).rows as { pid: number }[];
        // The server ends this backend, as a database restart does, while the client is checked out.
        await admin.query("select pg_terminate_backend($1)", [row!.pid]);
        await tx.execute(sql`select pg_sleep(1)`);
      });
      await expect(failed).rejects.toThrow();
      // Without a listener on checked-out clients, the client's 'error' event would have ended the process.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const after = await database.db.execute(sql`select 1 as one`);
      expect(after.rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await database.close();
    }
  });

  it("logs an idle connection the server ended once, with the reason and without the client, and goes on", async () => {
    const url = process.env.TEST_DATABASE_URL!;
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const database = connectDatabase(url, createLogger("info", stream), { max: 1 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const [row] = (await database.pool.query("select pg_backend_pid() as pid")).rows as { pid: number }[];
      await admin.query("select pg_terminate_backend($1)", [row!.pid]);
      for (const started = Date.now(); lines.length === 0 && Date.now() - started < 5_000; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Both the client and the pool hear of it; a second line would come within this wait.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({
        level: 40,
        msg: "database connection lost",
        code: "57P01",
        reason: "terminating connection due to administrator command",
      });
      expect(lines[0]).not.toMatch(/secretKey|processID|connectionParameters/);
      expect((await database.db.execute(sql`select 1 as one`)).rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await database.close();
    }
  });
});
