import { inArray, sql } from "drizzle-orm";
import type { Database } from "./client";
import { user } from "./schema";

/** Accounts listed in ADMIN_EMAILS are Admin at every start, whatever their role was set to. */
export async function promoteAdmins(db: Database, emails: readonly string[]): Promise<void> {
  if (emails.length === 0) return;
  await db
    .update(user)
    .set({ role: "Admin" })
    .where(inArray(sql`lower(${user.email})`, emails));
}
