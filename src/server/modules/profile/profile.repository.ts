import { eq, inArray } from "drizzle-orm";
import { user } from "#server/db/auth.tables";
import type { Database, Queryable } from "#server/db/client";

/** What a profile is made from: the account's identity, as it shows, and its name and avatar columns. */
const profileColumns = {
  id: user.id,
  email: user.email,
  firstName: user.firstName,
  lastName: user.lastName,
  nickname: user.nickname,
  role: user.role,
  avatarPath: user.avatarPath,
};

/** The profile module's columns of `user`: the name (with Better Auth's `name`) and the avatar. */
export function createProfileRepository(db: Database) {
  return {
    async find(userId: string) {
      const [row] = await db.select(profileColumns).from(user).where(eq(user.id, userId));
      return row;
    },

    async setNames(userId: string, names: { firstName: string; lastName: string; nickname: string | null }) {
      const [row] = await db
        .update(user)
        .set({ ...names, name: `${names.firstName} ${names.lastName}` })
        .where(eq(user.id, userId))
        .returning(profileColumns);
      return row;
    },

    /**
     * Points the account at a new avatar and answers the path it replaced, read under the row's
     * lock, so of two uploads at once each learns exactly the files it replaced. Null when the
     * account is gone.
     */
    async replaceAvatarPath(userId: string, avatarPath: string) {
      return db.transaction(async (tx) => {
        const [old] = await tx
          .select({ avatarPath: user.avatarPath })
          .from(user)
          .where(eq(user.id, userId))
          .for("update");
        if (!old) return null;
        const [row] = await tx.update(user).set({ avatarPath }).where(eq(user.id, userId)).returning(profileColumns);
        return { row: row!, previous: old.avatarPath };
      });
    },

    /**
     * The avatar paths the accounts of `userIds` hold now (the orphan sweep's question), read by
     * the accounts' ids, which are in each path.
     */
    async avatarPathsOf(userIds: string[]): Promise<Set<string>> {
      if (userIds.length === 0) return new Set();
      const rows = await db.select({ avatarPath: user.avatarPath }).from(user).where(inArray(user.id, userIds));
      return new Set(rows.flatMap((row) => (row.avatarPath ? [row.avatarPath] : [])));
    },

    async avatarPathOf(userId: string, q: Queryable = db): Promise<string | null> {
      const [row] = await q.select({ avatarPath: user.avatarPath }).from(user).where(eq(user.id, userId));
      return row?.avatarPath ?? null;
    },

    /** The account as Export My Data shows it, with its avatar's path. */
    async exportRow(userId: string) {
      const [row] = await db
        .select({
          id: user.id,
          email: user.email,
          emailVerified: user.emailVerified,
          firstName: user.firstName,
          lastName: user.lastName,
          nickname: user.nickname,
          role: user.role,
          createdAt: user.createdAt,
          updatedAt: user.updatedAt,
          avatarPath: user.avatarPath,
        })
        .from(user)
        .where(eq(user.id, userId));
      return row;
    },
  };
}

export type ProfileRepository = ReturnType<typeof createProfileRepository>;
