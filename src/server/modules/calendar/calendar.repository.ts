import { eq, sql } from "drizzle-orm";
import type { Database } from "#server/db/client";
import { calendarFeed } from "./calendar.tables";

/** The calendar module's table: calendar_feed, one token's hash per user. */
export function createCalendarRepository(db: Database) {
  return {
    /** When the user's feed was made; undefined when they have none. */
    async of(userId: string) {
      const [row] = await db
        .select({ createdAt: calendarFeed.createdAt })
        .from(calendarFeed)
        .where(eq(calendarFeed.userId, userId));
      return row;
    },

    /** Stores a new token's hash for the user, replacing any: the old token then finds nothing. */
    async replace(userId: string, tokenHash: string) {
      const [row] = await db
        .insert(calendarFeed)
        .values({ userId, tokenHash })
        .onConflictDoUpdate({ target: calendarFeed.userId, set: { tokenHash, createdAt: sql`now()` } })
        .returning({ createdAt: calendarFeed.createdAt });
      return row!;
    },

    /** Deletes the user's feed; false when there was none. */
    async remove(userId: string) {
      const deleted = await db
        .delete(calendarFeed)
        .where(eq(calendarFeed.userId, userId))
        .returning({ userId: calendarFeed.userId });
      return deleted.length > 0;
    },

    /** Whose feed a token's hash opens; undefined when none does. */
    async ownerOf(tokenHash: string) {
      const [row] = await db
        .select({ userId: calendarFeed.userId })
        .from(calendarFeed)
        .where(eq(calendarFeed.tokenHash, tokenHash));
      return row?.userId;
    },
  };
}

export type CalendarRepository = ReturnType<typeof createCalendarRepository>;
