import { hashPassword, verifyPassword } from "better-auth/crypto";
import type { PasswordHasher } from "#server/auth/auth";

/**
 * Better Auth's own password hashing (scrypt, its settings), remembering each check it has made. A
 * check is a pure function of the stored hash and the password given, so its answer is the one the
 * app would compute again; only the work is saved. Each scrypt costs about a tenth of a second of
 * CPU, and the suite signs up and signs in thousands of accounts, each sign-in checking the hash its
 * sign-up has just made. Every hash is still new, with a salt of its own.
 */
export function rememberedPasswords(): Required<PasswordHasher> {
  const checks = new Map<string, boolean>();
  const key = (hash: string, password: string) => `${hash}\u0000${password}`;
  return {
    async hash(password) {
      const hash = await hashPassword(password);
      checks.set(key(hash, password), true);
      return hash;
    },
    async verify({ hash, password }) {
      const known = checks.get(key(hash, password));
      if (known !== undefined) return known;
      const matches = await verifyPassword({ hash, password });
      checks.set(key(hash, password), matches);
      return matches;
    },
  };
}
