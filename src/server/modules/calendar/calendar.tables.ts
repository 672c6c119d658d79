import { pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "#server/db/auth.tables";

/**
 * A user's calendar feed (docs/decisions/082-calendar-feed.md): the SHA-256 hash of the token its
 * private URL carries, never the token itself, and when that token was made. One per user, made on
 * demand; a new token replaces the row's hash, turning the feed off deletes the row. It goes with
 * the account.
 */
export const calendarFeed = pgTable("calendar_feed", {
  userId: text("user_id")
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
