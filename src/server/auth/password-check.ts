import type { Auth } from "./auth";

/** True when `password` is the account's own password. */
export type PasswordCheck = (userId: string, password: string) => Promise<boolean>;

/**
 * Checks a password the way Better Auth's sign-in does: against the hash on the account's
 * credential row, with Better Auth's own hasher and settings. An account without a password (none
 * today: sign-in is by email and password only) never matches.
 */
export function createPasswordCheck(auth: Auth): PasswordCheck {
  return async (userId, password) => {
    const context = await auth.$context;
    const credential = await context.internalAdapter.findCredentialAccount(userId);
    if (!credential?.password) return false;
    return context.password.verify({ hash: credential.password, password });
  };
}
