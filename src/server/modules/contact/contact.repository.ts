import { and, asc, count, desc, eq, gt, sql } from "drizzle-orm";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { LOCK_CLASSES } from "#server/db/locks";
import type { ContactMessageInput } from "./contact.contract";
import { contactMessage } from "./contact.tables";

/** The contact module's table: the messages sent through the form. */
export function createContactRepository(db: Database) {
  return {
    /**
     * Stores the message unless the client has sent `perHour` in the last hour. The count and the
     * insert run under a per-client transaction lock, so concurrent requests (on any instance) take
     * turns and cannot both slip under the limit. `stored` runs in the insert's transaction (the
     * event that it happened).
     */
    async insertWithinLimit(
      message: ContactMessageInput & { userId: string | null; clientKey: string },
      perHour: number,
      stored: (tx: Transaction, id: string) => Promise<void>,
    ): Promise<{ sent: true; id: string } | { sent: false; retryAfterSeconds: number }> {
      const { clientKey } = message;
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASSES.contact}::int, hashtext(${clientKey}))`);
        const [recent] = await tx
          .select({
            count: count(),
            // Seconds until the oldest message in the window is an hour old, freeing a place.
            retryAfterSeconds: sql<
              number | null
            >`ceil(extract(epoch from min(${contactMessage.createdAt}) + interval '1 hour' - now()))::int`,
          })
          .from(contactMessage)
          .where(
            and(eq(contactMessage.clientKey, clientKey), gt(contactMessage.createdAt, sql`now() - interval '1 hour'`)),
          );
        if (recent && recent.count >= perHour) {
          return { sent: false, retryAfterSeconds: Math.max(1, recent.retryAfterSeconds ?? 3600) };
        }
        const [row] = await tx.insert(contactMessage).values(message).returning({ id: contactMessage.id });
        await stored(tx, row!.id);
        return { sent: true, id: row!.id };
      });
    },

    /** One message, in the caller's transaction; undefined when it is gone (with its sender's account). */
    async byId(id: string, q: Queryable = db) {
      const [row] = await q
        .select({
          fullName: contactMessage.fullName,
          email: contactMessage.email,
          message: contactMessage.message,
          userId: contactMessage.userId,
        })
        .from(contactMessage)
        .where(eq(contactMessage.id, id));
      return row;
    },

    /** Newest first. */
    async page({ page, perPage }: { page: number; perPage: number }) {
      const [messages, [totals]] = await Promise.all([
        db
          .select({
            id: contactMessage.id,
            fullName: contactMessage.fullName,
            email: contactMessage.email,
            message: contactMessage.message,
            createdAt: contactMessage.createdAt,
            userId: contactMessage.userId,
          })
          .from(contactMessage)
          .orderBy(desc(contactMessage.createdAt), desc(contactMessage.id))
          .limit(perPage)
          .offset((page - 1) * perPage),
        db.select({ total: count() }).from(contactMessage),
      ]);
      return { messages, total: totals?.total ?? 0 };
    },

    /** The messages an account sent, oldest first. */
    async sentBy(userId: string) {
      return db
        .select({
          fullName: contactMessage.fullName,
          email: contactMessage.email,
          message: contactMessage.message,
          createdAt: contactMessage.createdAt,
        })
        .from(contactMessage)
        .where(eq(contactMessage.userId, userId))
        .orderBy(asc(contactMessage.createdAt), asc(contactMessage.id));
    },
  };
}
