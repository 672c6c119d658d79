import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { user } from "#server/db/schema";
import { UNSUBSCRIBE_LINK_DAYS, unsubscribeToken } from "#server/modules/reminders/reminders.service";
import type { TestApp } from "#tests/test-app";

const DAY = 24 * 60 * 60_000;

/**
 * The token a reminder's unsubscribe link would carry for this account now (its unsubscribe key,
 * signed with the app's AUTH_SECRET), as if the reminder were written at `writtenAt`; for an account
 * that does not exist, one with a key no account has.
 */
export async function unsubscribeTokenOf(
  t: Pick<TestApp, "db" | "env">,
  userId: string,
  writtenAt: Date = new Date(),
): Promise<string> {
  const [row] = await t.db.select({ key: user.unsubscribeKey }).from(user).where(eq(user.id, userId));
  const expiresAt = new Date(writtenAt.getTime() + UNSUBSCRIBE_LINK_DAYS * DAY);
  return unsubscribeToken(t.env.AUTH_SECRET, row?.key ?? randomUUID(), expiresAt);
}
