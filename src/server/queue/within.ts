import { type SQL, sql } from "drizzle-orm";
import type PgBoss from "pg-boss";
import type { Queryable } from "#server/db/client";

/**
 * pg-boss's way into a database (its `db` option) over a caller's drizzle transaction, so a job
 * sent with other rows is inserted by the same transaction: kept if it commits, gone if it rolls
 * back. pg-boss writes its statements with numbered parameters ($1, $2…); each becomes a drizzle
 * parameter in its place (one used twice is sent twice, with the same value).
 */
export function executorOf(q: Queryable): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const result = await q.execute(statementOf(text, values));
      return { rows: result.rows };
    },
  };
}

function statementOf(text: string, values: readonly unknown[]): SQL {
  const parts = text.split(/\$(\d+)(?!\d)/);
  const chunks = parts.map((part, index) => (index % 2 === 0 ? sql.raw(part) : sql.param(values[Number(part) - 1])));
  return sql.join(chunks);
}
