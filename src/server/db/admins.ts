import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "./client";
import { user } from "./schema";

/**
 * Accounts listed in ADMIN_EMAILS are Admin at every start, whatever their role was set to, once
 * their address is verified: an unverified sign-up with a listed address proves nothing about who
 * made it (docs/decisions/027).
 */
export async function promoteAdmins(db: Database, emails: readonly string[]): Promise<void> {
  if (emails.length === 0) return;
  await db
    .update(user)
    .set({ role: "Admin" })
    .where(and(inArray(sql`lower(${user.email})`, emails), eq(user.emailVerified, true)));
}

/** Makes a listed account Admin as its address is verified. */
export async function promoteVerifiedAdmin(db: Database, userId: string): Promise<void> {
  await db
    .update(user)
    .set({ role: "Admin" })
    .where(and(eq(user.id, userId), eq(user.emailVerified, true)));
}
