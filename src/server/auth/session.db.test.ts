import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { session as sessionTable, user as userTable } from "#server/db/schema";
import { createTestApp } from "#tests/test-app";

// The session check of every API request (src/server/auth/session.ts): a valid cookie costs one
// query; whatever is not plainly valid must be judged exactly as Better Auth judges it.
const t = await createTestApp();

const DAY_MS = 24 * 60 * 60 * 1000;
const TOKEN_COOKIE = "better-auth.session_token";

/** The signed value of the session cookie, as the browser holds it (URI-encoded `token.signature`). */
function tokenCookieValue(cookie: string): string {
  const pair = cookie.split("; ").find((part) => part.startsWith(`${TOKEN_COOKIE}=`));
  if (!pair) throw new Error(`no ${TOKEN_COOKIE} in ${cookie}`);
  return pair.slice(TOKEN_COOKIE.length + 1);
}

async function signedIn() {
  const { user, cookie } = await t.signedInUser();
  const [row] = await t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, user.email));
  const [session] = await t.db.select().from(sessionTable).where(eq(sessionTable.userId, row!.id));
  return { cookie, userId: row!.id, session: session! };
}

const profileStatus = async (cookie: string) => (await t.request("/api/profile", { cookie })).status;
const clearsTokenCookie = (response: Response) =>
  response.headers.getSetCookie().some((value) => value.startsWith(`${TOKEN_COOKIE}=;`) || /max-age=0/i.test(value));

describe("the session cookie", () => {
  it("signs a learner in with one query, and answers without touching the cookie", async () => {
    const { cookie } = await signedIn();
    const response = await t.request("/api/profile", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()).toEqual([]);

    // An API path with no handler runs the session check and nothing else.
    const queries = vi.spyOn(t.pool, "query");
    try {
      expect((await t.request("/api/no-such-route", { cookie })).status).toBe(404);
      expect(queries).toHaveBeenCalledTimes(1);
    } finally {
      queries.mockRestore();
    }
  });

  it("is refused when its signature is wrong, missing, in base64url, or signs another token", async () => {
    // A signature with "+" or "/", whose base64url form differs (three sign-ins in four have one).
    let mine = await signedIn();
    while (!/[+/]/.test(decodeURIComponent(tokenCookieValue(mine.cookie)))) mine = await signedIn();
    const other = await signedIn();
    const value = decodeURIComponent(tokenCookieValue(mine.cookie));
    const [token, signature] = [value.slice(0, value.lastIndexOf(".")), value.slice(value.lastIndexOf(".") + 1)];
    const otherSignature = decodeURIComponent(tokenCookieValue(other.cookie)).split(".").at(-1)!;
    const flipped = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    for (const forged of [
      `${token}.${flipped}`,
      token,
      `${token}.`,
      `${token}.${otherSignature}`,
      `${token}.${signature.replace(/=$/, "")}`,
      `${token}.${signature.replaceAll("+", "-").replaceAll("/", "_")}`,
      `${mine.session.token}x.${signature}`,
    ]) {
      expect(await profileStatus(`${TOKEN_COOKIE}=${encodeURIComponent(forged)}`), forged).toBe(401);
    }
    // The genuine cookie still works: nothing above touched the session.
    expect(await profileStatus(mine.cookie)).toBe(200);
  });

  it("is refused once the session is revoked, and the answer clears it", async () => {
    const { cookie, session } = await signedIn();
    await t.db.delete(sessionTable).where(eq(sessionTable.id, session.id));
    const response = await t.request("/api/profile", { cookie });
    expect(response.status).toBe(401);
    expect(clearsTokenCookie(response)).toBe(true);
  });

  it("is refused once the session has expired, which is then deleted", async () => {
    const { cookie, session } = await signedIn();
    await t.db
      .update(sessionTable)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessionTable.id, session.id));
    const response = await t.request("/api/profile", { cookie });
    expect(response.status).toBe(401);
    expect(clearsTokenCookie(response)).toBe(true);
    expect(await t.db.select().from(sessionTable).where(eq(sessionTable.id, session.id))).toEqual([]);
  });

  it("is renewed, with a fresh cookie, once a day of use has passed, and not before", async () => {
    const { cookie, session } = await signedIn();
    // Renewed 23 hours ago: not yet due.
    const notDue = new Date(Date.now() + 30 * DAY_MS - 23 * 60 * 60 * 1000);
    await t.db.update(sessionTable).set({ expiresAt: notDue }).where(eq(sessionTable.id, session.id));
    const early = await t.request("/api/profile", { cookie });
    expect(early.status).toBe(200);
    expect(early.headers.getSetCookie()).toEqual([]);
    const [unchanged] = await t.db.select().from(sessionTable).where(eq(sessionTable.id, session.id));
    expect(unchanged!.expiresAt.getTime()).toBe(notDue.getTime());

    // Renewed 25 hours ago: due.
    await t.db
      .update(sessionTable)
      .set({ expiresAt: new Date(Date.now() + 30 * DAY_MS - 25 * 60 * 60 * 1000) })
      .where(eq(sessionTable.id, session.id));
    const due = await t.request("/api/profile", { cookie });
    expect(due.status).toBe(200);
    expect(due.headers.getSetCookie().some((value) => value.startsWith(`${TOKEN_COOKIE}=`))).toBe(true);
    const [renewed] = await t.db.select().from(sessionTable).where(eq(sessionTable.id, session.id));
    expect(renewed!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 30 * DAY_MS - 60_000);
  });

  it("reads the role and the account afresh on every request", async () => {
    const { cookie, userId } = await signedIn();
    expect(await profileStatus(cookie)).toBe(200);
    expect((await t.request("/api/users", { cookie })).status).toBe(403);
    await t.db.update(userTable).set({ role: "Tutor" }).where(eq(userTable.id, userId));
    expect((await t.request("/api/users", { cookie })).status).toBe(200);
    await t.db.delete(userTable).where(eq(userTable.id, userId));
    expect(await profileStatus(cookie)).toBe(401);
  });

  it("still signs in a cookie that carries Better Auth's other cookies", async () => {
    const { cookie } = await signedIn();
    const response = await t.request("/api/profile", {
      cookie: `${cookie}; better-auth.session_data=stale`,
    });
    expect(response.status).toBe(200);
    // Better Auth cleans up the session-data cookie it no longer uses.
    expect(response.headers.getSetCookie().some((value) => value.startsWith("better-auth.session_data="))).toBe(true);
  });
});
