import { type AnyColumn, asc, count, eq, or, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { can, ROLES, type Role } from "#course/roles";
import type { UserPage, UserSummary } from "#course/users";
import type { Database } from "#server/db/client";
import { user } from "#server/db/schema";
import { forbidden, HttpError, notFound } from "#server/http/errors";
import { pageQuerySchema } from "#server/http/validation";

export type { UserPage, UserSummary };

const NO_SUCH_USER = "There is no such user.";

/**
 * The key of the transaction lock every change to the set of Admins takes: role changes and account
 * deletions (pg_advisory_xact_lock, one 64-bit key). Any constant shared by all instances works; it
 * differs from the migration lock's key, and the contact form's two-part keys never meet single keys.
 */
const ADMIN_CHANGE_LOCK_KEY = 7_346_214_902;

export const usersQuerySchema = pageQuerySchema.extend({
  search: z
    .string()
    .trim()
    .max(100, "search must be at most 100 characters.")
    .transform((value) => value || undefined)
    .optional(),
});

export type UsersQuery = z.infer<typeof usersQuerySchema>;

export const roleChangeSchema = z
  .object({
    role: z.enum(ROLES, {
      error: (issue) =>
        issue.input === undefined ? "Role is required." : 'Role must be "Student", "Tutor" or "Admin".',
    }),
  })
  .strict();

const summaryColumns = {
  id: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  nickname: user.nickname,
  email: user.email,
  role: user.role,
};

/** A database handle or an open transaction: what the helpers below run their queries on. */
type Queries = Pick<Database, "execute" | "select">;

/**
 * Makes every change that could leave Jalan without an Admin take turns, on every instance, until
 * the caller's transaction ends. Checks made after it (assertNotLastAdmin) stay true until then.
 */
export async function lockAdminChanges(tx: Queries): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ADMIN_CHANGE_LOCK_KEY}::bigint)`);
}

/**
 * 409 LAST_ADMIN when an account of role `role` is about to stop being an Admin (demoted or
 * deleted) and it is the only one. Run it under lockAdminChanges, in the transaction that writes.
 */
export async function assertNotLastAdmin(tx: Queries, role: Role): Promise<void> {
  if (role !== "Admin") return;
  const [admins] = await tx.select({ n: count() }).from(user).where(eq(user.role, "Admin"));
  if ((admins?.n ?? 0) <= 1) {
    throw new HttpError(409, "LAST_ADMIN", "Jalan needs at least one admin. Make someone else an admin first.");
  }
}

/** 404 unless an account with this id exists. */
export async function requireAccount(db: Database, userId: string): Promise<void> {
  const [row] = await db.select({ id: user.id }).from(user).where(eq(user.id, userId));
  if (!row) throw notFound(NO_SUCH_USER);
}

/**
 * Runs a write that references a user checked a moment ago. If the account was deleted in between,
 * PostgreSQL refuses the row (foreign-key violation): that is the same 404, not a 500.
 */
export async function unlessUserVanished<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (sqlState(error) === "23503") throw notFound(NO_SUCH_USER);
    throw error;
  }
}

function sqlState(error: unknown): string | undefined {
  for (let current = error; current && typeof current === "object"; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** `%`, `_` and `\` in a search are themselves, not LIKE wildcards. */
function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** Accounts for staff (spec section 6): listing and searching them, and the Admin's role changer. */
export function createUsersService(db: Database) {
  return {
    /**
     * Accounts whose first name, last name, full name, nickname or email contains `search`
     * (case-insensitive), ordered by first name, last name and email, a page at a time.
     */
    async list({ search, page, perPage }: UsersQuery): Promise<UserPage> {
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
      return { users, total: totals?.total ?? 0, page, perPage };
    },

    /**
     * An Admin sets a user's role. Jalan always keeps one Admin: the checks and the update run in
     * one transaction under the lock role changes and account deletions take, so two Admins demoting
     * each other at the same moment take turns and the second is refused. Under the lock the caller
     * must still be an Admin: one demoted while their request waited changes nothing. The same role
     * again writes nothing. Answers the user as they are now and the role they had before.
     */
    async changeRole(adminId: string, userId: string, role: Role): Promise<{ user: UserSummary; previousRole: Role }> {
      return db.transaction(async (tx) => {
        await lockAdminChanges(tx);
        const [caller] = await tx.select({ role: user.role }).from(user).where(eq(user.id, adminId));
        if (!can(caller?.role, "admin:view")) throw forbidden();
        const [current] = await tx.select(summaryColumns).from(user).where(eq(user.id, userId));
        if (!current) throw notFound(NO_SUCH_USER);
        if (current.role === role) return { user: current, previousRole: current.role };
        await assertNotLastAdmin(tx, current.role);
        const [updated] = await tx.update(user).set({ role }).where(eq(user.id, userId)).returning(summaryColumns);
        if (!updated) throw notFound(NO_SUCH_USER);
        return { user: updated, previousRole: current.role };
      });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
