import type { AccountPart } from "#server/modules/module";
import type { UsersService } from "./users.service";

/**
 * The users module's part of an account: whether it has two-factor on, for the export; and, in the
 * deletion's transaction, admitting it (the lock role changes take, so the last Admin can neither be
 * deleted nor demoted meanwhile; the account read; the last Admin refused) and removing its row last.
 */
export function usersAccountPart(users: UsersService): AccountPart {
  return {
    export: { twoFactorEnabled: ({ userId }) => users.twoFactorEnabled(userId) },
    close: async (userId) => ({
      async admit(tx) {
        await users.lockAdminChanges(tx);
        const account = await users.summaryOf(userId, tx);
        if (!account) return null;
        await users.assertNotLastAdmin(tx, account.role);
        return { id: userId, email: account.email };
      },
      remove: (tx) => users.removeAccount(tx, userId),
    }),
  };
}
