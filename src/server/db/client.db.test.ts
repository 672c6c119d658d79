import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createLogger } from "../logger";
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
});
