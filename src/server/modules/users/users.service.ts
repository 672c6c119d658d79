import { displayName } from "#course/account-rules";
import { can, mayActOn, type Role } from "#course/roles";
import { NO_SUCH_USER } from "#server/db/accounts";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { roomAccessChanged } from "#server/db/room-access";
import { forbidden, HttpError, notFound } from "#server/http/errors";
import { avatarUrls } from "#server/modules/profile/profile.contract";
import type { Person, PersonWithEmail, UserPage, UserSummary, UsersQuery } from "./users.contract";
import { createUsersRepository } from "./users.repository";

/**
 * Accounts for staff (spec section 6): listing and searching them, and the Admin's role changer;
 * and, for the account module, the rules that keep one Admin (whether an account exists is
 * src/server/db/accounts.ts, below every module).
 */
export function createUsersService(db: Database) {
  const users = createUsersRepository(db);

  /**
   * The display facts of a set of users, by id, in one statement whatever their number (decision
   * 073): every module that shows people reads them here. The address comes only with `email`,
   * for a caller that writes to them. An id with no account is left out.
   */
  async function people(
    ids: readonly string[],
    options?: { email?: false; q?: Queryable },
  ): Promise<Map<string, Person>>;
  async function people(
    ids: readonly string[],
    options: { email: true; q?: Queryable },
  ): Promise<Map<string, PersonWithEmail>>;
  async function people(ids: readonly string[], { email = false, q = db }: { email?: boolean; q?: Queryable } = {}) {
    const rows = await users.people(ids, email, q);
    return new Map(
      rows.map(({ avatarPath, email: address, ...row }) => {
        const shown: Person = { ...row, name: displayName(row), avatar: avatarUrls(avatarPath) };
        return [row.id, email ? { ...shown, email: address } : shown];
      }),
    );
  }

  /**
   * 409 LAST_ADMIN when an account of role `role` is about to stop being an Admin (demoted or
   * deleted) and it is the only one. Run it under lockAdminChanges, in the transaction that writes.
   */
  async function assertNotLastAdmin(tx: Transaction, role: Role): Promise<void> {
    if (role !== "Admin") return;
    if ((await users.adminCount(tx)) <= 1) {
      throw new HttpError(409, "LAST_ADMIN", "Jalan needs at least one admin. Make someone else an admin first.");
    }
  }

  return {
    people,

    /**
     * The accounts a member of staff may act on (mayActOn): an Admin sees everyone, a Tutor the
     * Students only.
     */
    async list(viewer: Role, { search, page, perPage }: UsersQuery): Promise<UserPage> {
      const role = mayActOn(viewer, "Admin") ? undefined : "Student";
      const { users: rows, total } = await users.page({ search, page, perPage, role });
      return { users: rows, total, page, perPage };
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
        await users.lockAdminChanges(tx);
        if (!can(await users.roleOf(adminId, tx), "admin:view")) throw forbidden();
        const current = await users.summaryOf(userId, tx);
        if (!current) throw notFound(NO_SUCH_USER);
        if (current.role === role) return { user: current, previousRole: current.role };
        await assertNotLastAdmin(tx, current.role);
        const updated = await users.setRole(userId, role, tx);
        if (!updated) throw notFound(NO_SUCH_USER);
        await roomAccessChanged(tx, { userId });
        return { user: updated, previousRole: current.role };
      });
    },

    /**
     * Makes every change that could leave Jalan without an Admin take turns, on every instance, until
     * the caller's transaction ends. Checks made after it (assertNotLastAdmin) stay true until then.
     */
    lockAdminChanges: (tx: Transaction) => users.lockAdminChanges(tx),

    assertNotLastAdmin,

    /** The addresses of every Admin account: who hears of a contact message. */
    adminEmails: () => users.adminEmails(),

    /** The account as staff see it listed (names, email, role), or undefined when there is none. */
    summaryOf: (userId: string, q: Queryable = db) => users.summaryOf(userId, q),

    /** The account's role, or undefined when there is no such account. */
    roleOf: (userId: string, q: Queryable = db) => users.roleOf(userId, q),

    /** Whether the account signs in with a second factor (Better Auth's two-factor plugin sets it). */
    twoFactorEnabled: (userId: string) => users.twoFactorEnabled(userId),

    /**
     * Deletes the account in the caller's transaction: its row, whose foreign keys take every row of
     * every module that belongs to it, and Better Auth's one-time values for it.
     */
    async removeAccount(tx: Transaction, userId: string): Promise<void> {
      await users.remove(tx, userId);
      await roomAccessChanged(tx, { userId });
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
