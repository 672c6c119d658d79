import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeEach, vi } from "vitest";
import type { TaskStatus } from "#course/progress-status";
import type { Role } from "#course/roles";
import { user as userTable } from "#server/db/schema";
import type { AppInProcess } from "./app-in-process";

/**
 * Set-up for the staff and admin pages' tests against the app in process
 * (tests/web/app-in-process.ts): the accounts their pages list, roles that change while a page
 * is open, and a network that fails. What the page sent is the app's `requests`.
 */

/**
 * Every test of the file starts with no account: each is deleted with all it owns, so a page that
 * lists the accounts lists those the test made, and no more. Call once, after connectApp.
 */
export function startEachTestWithNoAccounts(app: AppInProcess) {
  beforeEach(async () => {
    await app.t.db.delete(userTable);
  });
}

/** An account stored to be listed: what a page shows of it, and its id. */
export interface StoredAccount {
  id: string;
  firstName: string;
  lastName: string;
  nickname: string | null;
  email: string;
  role: Role;
}

/**
 * Accounts a page only lists, never signed in, stored as sign-up and the profile page leave them
 * but with no password (Students unless told): signed up through the API, each would hash a
 * password, a second or more on a busy machine.
 */
export async function storeAccounts(
  app: AppInProcess,
  accounts: ReadonlyArray<{ firstName: string; lastName: string; email: string; nickname?: string; role?: Role }>,
): Promise<StoredAccount[]> {
  return app.t.db
    .insert(userTable)
    .values(
      accounts.map((account) => ({ id: randomUUID(), name: `${account.firstName} ${account.lastName}`, ...account })),
    )
    .returning({
      id: userTable.id,
      firstName: userTable.firstName,
      lastName: userTable.lastName,
      nickname: userTable.nickname,
      email: userTable.email,
      role: userTable.role,
    });
}

/** One account stored to be listed (storeAccounts). */
export async function storeAccount(
  app: AppInProcess,
  account: { firstName: string; lastName: string; email: string; nickname?: string; role?: Role },
): Promise<StoredAccount> {
  const [stored] = await storeAccounts(app, [account]);
  return stored!;
}

/** Gives a user another role in the database, as another admin would while the page stays open. */
export async function setRole(app: AppInProcess, userId: string, role: Role) {
  await app.t.db.update(userTable).set({ role }).where(eq(userTable.id, userId));
}

/** The status the server holds for a user's task: a task with no record is not started. */
export async function storedStatus(
  app: AppInProcess,
  userId: string,
  chapterId: string,
  dayId: string,
  taskId: string,
): Promise<TaskStatus> {
  const { progress } = await app.progressOf(userId);
  return progress[chapterId]?.[dayId]?.[taskId] ?? "not-started";
}

/** What the page says when a request never reached the server (src/web/lib/api.ts). */
export const NETWORK_ERROR = "We could not reach the server. Check your connection and try again.";

/**
 * Makes the page's requests that match fail as a lost connection does: the browser's fetch rejects
 * and our server never sees them; the others go on into the app. Lasts for the test.
 */
export function cutNetworkTo(matches: (request: { method: string; path: string }) => boolean) {
  const through = globalThis.fetch;
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
    if (matches(requestOf(input, init))) return Promise.reject(new TypeError("Failed to fetch"));
    return through(input, init);
  });
}

/** A fetch call's method and path with query, as the bridge into the app reads them. */
function requestOf(input: RequestInfo | URL, init?: RequestInit) {
  const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost");
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  return { method, path: url.pathname + url.search };
}
