import { and, asc, desc, eq, gt, ne } from "drizzle-orm";
import { session } from "#server/db/auth.tables";
import type { Database } from "#server/db/client";
import { roomAccessChanged } from "#server/db/room-access";

/** The account module's table: the sessions Better Auth keeps, one per signed-in device. */
export function createAccountRepository(db: Database) {
  return {
    /** The account's unexpired sessions, most recently active first. */
    async unexpiredSessions(userId: string) {
      return db
        .select({
          id: session.id,
          createdAt: session.createdAt,
          updatedAt: session.updatedAt,
          expiresAt: session.expiresAt,
          ipAddress: session.ipAddress,
          userAgent: session.userAgent,
        })
        .from(session)
        .where(and(eq(session.userId, userId), gt(session.expiresAt, new Date())))
        .orderBy(desc(session.updatedAt), desc(session.createdAt), asc(session.id));
    },

    /** When the session signed in and last had its password entered again; undefined when it is gone. */
    async freshnessOf(sessionId: string) {
      const [row] = await db
        .select({ createdAt: session.createdAt, passwordConfirmedAt: session.passwordConfirmedAt })
        .from(session)
        .where(eq(session.id, sessionId));
      return row;
    },

    /** Marks the account's session as having entered its password at `at`; false when it is gone. */
    async markPasswordConfirmed(userId: string, sessionId: string, at: Date): Promise<boolean> {
      const updated = await db
        .update(session)
        .set({ passwordConfirmedAt: at })
        .where(and(eq(session.id, sessionId), eq(session.userId, userId)))
        .returning({ id: session.id });
      return updated.length === 1;
    },

    /** Deletes the account's sessions but one, answering when each deleted session would have expired. */
    async deleteOtherSessions(userId: string, keptSessionId: string) {
      const deleted = await db
        .delete(session)
        .where(and(eq(session.userId, userId), ne(session.id, keptSessionId)))
        .returning({ expiresAt: session.expiresAt });
      await roomAccessChanged(db, { userId });
      return deleted;
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
