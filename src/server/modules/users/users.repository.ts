import { type AnyColumn, and, asc, count, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { Role } from "#course/roles";
import type { UserSummary } from "#course/users";
import { user, verification } from "#server/db/auth.tables";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { LOCK_KEYS } from "#server/db/locks";

const summaryColumns = {
  id: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  nickname: user.nickname,
  email: user.email,
  role: user.role,
};

/** A person's display facts, as their account, profile and settings hold them (users.contract.ts Person). */
const personColumns = {
  id: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  nickname: user.nickname,
  role: user.role,
  timeZone: user.timeZone,
  avatarPath: user.avatarPath,
};

/** `%`, `_` and `\` in a search are themselves, not LIKE wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The users module's tables: the account's identity and role on `user`, and Better Auth's account, verification and two-factor rows. */
export function createUsersRepository(db: Database) {
  return {
    /**
     * Accounts whose first name, last name, full name, nickname or email contains `search`
     * (case-insensitive), ordered by first name, last name and email, a page at a time.
     */
    /** A page of accounts by name, those matching `search` and, given `role`, of that role only. */
    async page({ search, page, perPage, role }: { search?: string; page: number; perPage: number; role?: Role }) {
      let where: SQL | undefined;
      if (search) {
        const pattern = likePattern(search);
        const contains = (column: AnyColumn | SQL) => sql`${column} ilike ${pattern} escape '\\'`;
        where = or(
          contains(user.firstName),
          contains(user.lastName),
          contains(sql`${user.firstName} || ' ' || ${user.lastName}`),
          contains(user.nickname),
          contains(user.email),
        );
      }
      if (role) where = and(where, eq(user.role, role));
      const [users, [totals]] = await Promise.all([
        db
          .select(summaryColumns)
          .from(user)
          .where(where)
          .orderBy(
            asc(sql`lower(${user.firstName})`),
            asc(sql`lower(${user.lastName})`),
            asc(sql`lower(${user.email})`),
            asc(user.id),
          )
          .limit(perPage)
          .offset((page - 1) * perPage),
        db.select({ total: count() }).from(user).where(where),
      ]);
      return { users, total: totals?.total ?? 0 };
    },

    /**
     * The display facts of these accounts (UsersService.people), in one statement whatever their
     * number; the address only when `withEmail`. An id with no account has no row.
     */
    async people(userIds: readonly string[], withEmail: boolean, q: Queryable = db) {
      if (userIds.length === 0) return [];
      return q
        .select({
          ...personColumns,
          email: withEmail ? user.email : sql<string>`''`,
        })
        .from(user)
        .where(inArray(user.id, [...new Set(userIds)]));
    },

    async summaryOf(userId: string, q: Queryable = db): Promise<UserSummary | undefined> {
      const [row] = await q.select(summaryColumns).from(user).where(eq(user.id, userId));
      return row;
    },

    async roleOf(userId: string, q: Queryable = db): Promise<Role | undefined> {
      const [row] = await q.select({ role: user.role }).from(user).where(eq(user.id, userId));
      return row?.role;
    },

    async setRole(userId: string, role: Role, q: Queryable = db): Promise<UserSummary | undefined> {
      const [row] = await q.update(user).set({ role }).where(eq(user.id, userId)).returning(summaryColumns);
      return row;
    },

    /** Takes the lock of changes to the set of Admins, held until `tx` ends. */
    async lockAdminChanges(tx: Transaction): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_KEYS.adminChange}::bigint)`);
    },

    async adminCount(q: Queryable = db): Promise<number> {
      const [admins] = await q.select({ n: count() }).from(user).where(eq(user.role, "Admin"));
      return admins?.n ?? 0;
    },

    async adminEmails(): Promise<string[]> {
      const admins = await db.select({ email: user.email }).from(user).where(eq(user.role, "Admin"));
      return admins.map((admin) => admin.email);
    },

    /** Better Auth's two-factor plugin's flag on the account; false for an account that is not there. */
    async twoFactorEnabled(userId: string): Promise<boolean> {
      const [row] = await db.select({ twoFactorEnabled: user.twoFactorEnabled }).from(user).where(eq(user.id, userId));
      return row?.twoFactorEnabled ?? false;
    },

    /**
     * Deletes the account's row, and with it (foreign keys) every row that belongs to it, and
     * Better Auth's one-time values for it, which do not reference it by key: a password reset
     * link, a two-factor sign-in under way and a trusted device hold its id; a sign-in's attempt
     * counter is named after one of those.
     */
    async remove(tx: Transaction, userId: string): Promise<void> {
      const pending = await tx
        .select({ identifier: verification.identifier })
        .from(verification)
        .where(eq(verification.value, userId));
      const counters = pending.map(({ identifier }) => `2fa-attempts-${identifier}`);
      await tx
        .delete(verification)
        .where(or(eq(verification.value, userId), inArray(verification.identifier, counters)));
      await tx.delete(user).where(eq(user.id, userId));
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
