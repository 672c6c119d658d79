import type pg from "pg";

/**
 * Counts the SQL statements a pool's connections send (BEGIN and COMMIT included: each is a round
 * trip), by wrapping each connection's `query` as the pool opens it. Give it a pool nothing has used
 * yet, and run only the work to be counted on it: every statement of every connection is counted.
 */
export function statementCounter(pool: pg.Pool) {
  let seen: string[] | null = null;
  pool.on("connect", (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      seen?.push(textOf(args[0]));
      return query(...args);
    };
  });
  return {
    /** The statements `work` sent, in order, with what it answered. */
    async during<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
      const statements: string[] = [];
      seen = statements;
      try {
        return { result: await work(), statements };
      } finally {
        seen = null;
      }
    },
  };
}

function textOf(query: unknown): string {
  const text = typeof query === "string" ? query : (query as { text?: unknown })?.text;
  return typeof text === "string" ? text.replace(/\s+/g, " ").trim() : String(query);
}
