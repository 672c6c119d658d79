import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Jalan's own limits (src/server/http/request-limit.ts): failed sign-ins per account, password checks
 * per user and per address. One row per key and fixed window.
 */
export const requestLimit = pgTable(
  "request_limit",
  {
    key: text("key").primaryKey(),
    windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
    count: integer("count").notNull(),
  },
  (table) => [index("request_limit_window_started_at_idx").on(table.windowStartedAt)],
);
