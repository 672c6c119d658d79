import { and, asc, eq, inArray, isNull, max, sql } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client";
import { voice, voiceConsent } from "./voices.tables";

const granted = {
  userId: voice.userId,
  creditedName: voice.creditedName,
  accent: voice.accent,
  grantedBy: voice.grantedBy,
  grantedAt: voice.grantedAt,
  updatedAt: voice.updatedAt,
};

/** The voices module's tables: voice (the grants) and voice_consent (every consent given). */
export function createVoicesRepository(db: Database) {
  /** Each user's standing consent and their last withdrawal, one row per user who ever consented. */
  const consentState = (q: Queryable) =>
    q
      .select({
        userId: voiceConsent.userId,
        version: sql<string | null>`max(${voiceConsent.version}) filter (where ${voiceConsent.withdrawnAt} is null)`.as(
          "version",
        ),
        consentedAt:
          sql<Date | null>`max(${voiceConsent.consentedAt}) filter (where ${voiceConsent.withdrawnAt} is null)`
            .mapWith(voiceConsent.consentedAt)
            .as("consented_at"),
        withdrawnAt: max(voiceConsent.withdrawnAt).as("withdrawn_at"),
      })
      .from(voiceConsent)
      .groupBy(voiceConsent.userId)
      .as("consent_state");

  /** Grants with their consent's state, read in one statement. */
  function grantsWithConsent(q: Queryable, userId?: string) {
    const state = consentState(q);
    return q
      .select({
        ...granted,
        version: state.version,
        consentedAt: state.consentedAt,
        withdrawnAt: state.withdrawnAt,
      })
      .from(voice)
      .leftJoin(state, eq(state.userId, voice.userId))
      .where(userId === undefined ? undefined : eq(voice.userId, userId))
      .orderBy(asc(voice.creditedName), asc(voice.userId));
  }

  return {
    /** Every grant with its consent's state, by credited name. */
    all: (q: Queryable = db) => grantsWithConsent(q),

    /** One user's grant with its consent's state; undefined when they are not a voice. */
    async of(userId: string, q: Queryable = db) {
      const [row] = await grantsWithConsent(q, userId);
      return row;
    },

    /**
     * Whether the user's grant and a standing consent exist, holding both until the transaction ends:
     * a withdrawal or a revocation then waits for it, and whatever it publishes its handler sees.
     */
    async lockStanding(tx: Queryable, userId: string): Promise<boolean> {
      const grant = await tx.select({ userId: voice.userId }).from(voice).where(eq(voice.userId, userId)).for("share");
      if (grant.length === 0) return false;
      const consent = await tx
        .select({ id: voiceConsent.id })
        .from(voiceConsent)
        .where(and(eq(voiceConsent.userId, userId), isNull(voiceConsent.withdrawnAt)))
        .for("share");
      return consent.length > 0;
    },

    /** The grants of these users: their credited names and accents. */
    credits(userIds: readonly string[], q: Queryable = db) {
      if (userIds.length === 0) return Promise.resolve([]);
      return q
        .select({ userId: voice.userId, creditedName: voice.creditedName, accent: voice.accent })
        .from(voice)
        .where(inArray(voice.userId, [...userIds]));
    },

    /** Locks the user's grant until the transaction ends (a consent against a revoke); undefined when there is none. */
    async lockGrant(tx: Queryable, userId: string) {
      const [row] = await tx.select(granted).from(voice).where(eq(voice.userId, userId)).for("update");
      return row;
    },

    /** Stores a grant; undefined when the user already holds one. */
    async grant(row: typeof voice.$inferInsert, q: Queryable = db) {
      const [stored] = await q.insert(voice).values(row).onConflictDoNothing().returning(granted);
      return stored;
    },

    /** Changes a grant's credited name or accent; undefined when there is none. */
    async change(userId: string, changes: Partial<Pick<typeof voice.$inferInsert, "creditedName" | "accent">>) {
      const [row] = await db.update(voice).set(changes).where(eq(voice.userId, userId)).returning(granted);
      return row;
    },

    /** Deletes a grant; false when there was none. */
    async revoke(tx: Queryable, userId: string) {
      const deleted = await tx.delete(voice).where(eq(voice.userId, userId)).returning({ userId: voice.userId });
      return deleted.length > 0;
    },

    /** Records a consent to `version` now, unless one stands already (then nothing is written). */
    async consent(tx: Queryable, userId: string, version: string) {
      await tx.insert(voiceConsent).values({ userId, version }).onConflictDoNothing();
    },

    /** Withdraws the standing consent now: its id, or undefined when none stood. */
    async withdraw(tx: Queryable, userId: string) {
      const [row] = await tx
        .update(voiceConsent)
        .set({ withdrawnAt: sql`now()` })
        .where(and(eq(voiceConsent.userId, userId), isNull(voiceConsent.withdrawnAt)))
        .returning({ id: voiceConsent.id });
      return row?.id;
    },

    /** The user's grant as stored, for their export; undefined when they hold none. */
    async grantOf(userId: string) {
      const [row] = await db.select(granted).from(voice).where(eq(voice.userId, userId));
      return row;
    },

    /** Every consent the user gave, oldest first. */
    consentsOf(userId: string) {
      return db
        .select({
          version: voiceConsent.version,
          consentedAt: voiceConsent.consentedAt,
          withdrawnAt: voiceConsent.withdrawnAt,
        })
        .from(voiceConsent)
        .where(eq(voiceConsent.userId, userId))
        .orderBy(asc(voiceConsent.consentedAt), asc(voiceConsent.id));
    },
  };
}

export type VoicesRepository = ReturnType<typeof createVoicesRepository>;
