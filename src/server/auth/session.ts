import { createHmac, timingSafeEqual } from "node:crypto";
import { and, eq, gt, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { can, isRole, type Policy } from "#course/roles";
import type { Database } from "#server/db/client";
import { session as sessionTable, user as userTable } from "#server/db/schema";
import type { AppEnv, SessionUser } from "#server/http/context";
import { forbidden, unauthorized } from "#server/http/errors";
import type { Auth } from "./auth";

export interface SignedIn {
  user: SessionUser;
  sessionId: string;
}

/** No usable session cookie: the request is anonymous, exactly as Better Auth would judge it. */
export const ANONYMOUS = "anonymous";
/** Better Auth must answer: the session is missing, expired or due for renewal, or a cookie it cleans up is present. */
export const ASK_BETTER_AUTH = "ask-better-auth";

/**
 * Reads the session behind the request's cookie. The usual case, a valid session that is not yet
 * due for renewal, costs one query (session joined to its user) and an HMAC check of the cookie,
 * in this process; no session or user data is cached, so a sign-out, a role change or a deleted
 * account takes effect on the very next request. Every other case is left to Better Auth, which
 * then clears the cookie, deletes an expired session or renews the session as its rules say
 * (docs/decisions/022-lean-request-path.md).
 */
export function createSessionReader(auth: Auth, db: Database) {
  const bySessionToken = db
    .select({
      sessionId: sessionTable.id,
      expiresAt: sessionTable.expiresAt,
      userId: userTable.id,
      email: userTable.email,
      role: userTable.role,
    })
    .from(sessionTable)
    .innerJoin(userTable, eq(userTable.id, sessionTable.userId))
    .where(eq(sessionTable.token, sql.placeholder("token")))
    .prepare("session_by_token");

  const settings = auth.$context.then((context) => ({
    secret: context.secret,
    tokenCookie: context.authCookies.sessionToken.name,
    /** Cookies Better Auth acts on when it reads a session: a request carrying one goes to it. */
    handledByBetterAuth: [context.authCookies.sessionData.name, context.authCookies.dontRememberToken.name],
    expiresInMs: context.sessionConfig.expiresIn * 1000,
    updateAgeMs: context.sessionConfig.updateAge * 1000,
  }));

  /** `cookies`: the request's cookies, parsed and URI-decoded (hono/cookie). */
  return async function read(
    cookies: Record<string, string>,
  ): Promise<SignedIn | typeof ANONYMOUS | typeof ASK_BETTER_AUTH> {
    const { secret, tokenCookie, handledByBetterAuth, expiresInMs, updateAgeMs } = await settings;
    if (handledByBetterAuth.some((name) => name in cookies)) return ASK_BETTER_AUTH;
    const signed = cookies[tokenCookie];
    if (!signed) return ANONYMOUS;
    const token = verifiedToken(signed, secret);
    if (!token) return ANONYMOUS;
    const [row] = await bySessionToken.execute({ token });
    if (!row) return ASK_BETTER_AUTH;
    const expiresAt = row.expiresAt.getTime();
    const now = Date.now();
    // Better Auth's own rules: an expired session is deleted, one last renewed over updateAge ago is extended.
    if (expiresAt < now || expiresAt - expiresInMs + updateAgeMs <= now) return ASK_BETTER_AUTH;
    return {
      user: { id: row.userId, email: row.email, role: row.role },
      sessionId: row.sessionId,
    };
  };
}

/**
 * The user of a session that still stands (not signed out, revoked or expired), with their role as
 * it is now; null once the session has ended. For a connection that outlives its request (a session
 * room's WebSocket), checked again while it stays open.
 */
export async function standingSessionUser(db: Database, sessionId: string): Promise<SessionUser | null> {
  const [row] = await db
    .select({ id: userTable.id, email: userTable.email, role: userTable.role })
    .from(sessionTable)
    .innerJoin(userTable, eq(userTable.id, sessionTable.userId))
    .where(and(eq(sessionTable.id, sessionId), gt(sessionTable.expiresAt, sql`now()`)));
  return row ?? null;
}

/**
 * A signature as Better Auth writes it: standard base64 of 32 bytes. Buffer.from(…, "base64") would
 * also take base64url's "-" and "_" and skip other characters, where Better Auth's atob refuses
 * them, so a cookie it judges anonymous could have signed in here.
 */
const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/**
 * The token of a session cookie signed as Better Auth signs it (`token.base64(HMAC-SHA256(secret,
 * token))`), or null when the signature does not match. Hono's getSignedCookie checks the same
 * format, but through WebCrypto with a key import per call, which cost more than the query.
 */
function verifiedToken(value: string, secret: string): string | null {
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signatureText = value.slice(dot + 1);
  if (!SIGNATURE.test(signatureText)) return null;
  const signature = Buffer.from(signatureText, "base64");
  const expected = createHmac("sha256", secret).update(token).digest();
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
}

/**
 * Puts the signed-in user (or null) on the context. When Better Auth reads the session and renews
 * it, it answers with a fresh cookie, which is passed on to the response unless the handler set
 * that cookie itself.
 */
export function loadSession(auth: Auth, db: Database): MiddlewareHandler<AppEnv> {
  const readSession = createSessionReader(auth, db);
  return async (c, next) => {
    c.set("user", null);
    c.set("sessionId", null);
    if (!c.req.header("cookie")) return next();
    const fast = await readSession(getCookie(c));
    if (fast !== ASK_BETTER_AUTH) {
      if (fast !== ANONYMOUS) {
        c.set("user", fast.user);
        c.set("sessionId", fast.sessionId);
      }
      return next();
    }
    const { headers, response } = await auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true });
    if (response) {
      const role = (response.user as { role?: unknown }).role;
      c.set("user", { id: response.user.id, email: response.user.email, role: isRole(role) ? role : "Student" });
      c.set("sessionId", response.session.id);
    }
    await next();
    // A cookie the handler set itself wins: account deletion expires the session cookie, which a
    // renewal appended after it would bring back.
    const setByHandler = new Set(c.res.headers.getSetCookie().map(cookieName));
    for (const cookie of headers.getSetCookie()) {
      if (!setByHandler.has(cookieName(cookie))) c.res.headers.append("set-cookie", cookie);
    }
  };
}

const cookieName = (setCookie: string) => setCookie.slice(0, setCookie.indexOf("="));

/**
 * How long a session stays fresh after it signed in or its password was entered again (POST
 * /api/account/confirm-password). Reading the account's export or its devices needs a fresh
 * session, so a cookie stolen or a device left signed in does not hand over everything
 * (docs/decisions/025-fresh-session.md).
 */
export const FRESH_SESSION_MS = 10 * 60 * 1000;

/** Whether the session signed in, or had its password entered again, within FRESH_SESSION_MS. */
export function isFreshSession(
  session: { createdAt: Date; passwordConfirmedAt: Date | null },
  now: number = Date.now(),
): boolean {
  const since = Math.max(session.createdAt.getTime(), session.passwordConfirmedAt?.getTime() ?? 0);
  return now - since < FRESH_SESSION_MS;
}

export function requireUser(c: Context<AppEnv>): SessionUser {
  const user = c.get("user");
  if (!user) throw unauthorized();
  return user;
}

/** The signed-in user when their role grants `policy` (src/course/roles.ts): 401 signed out, else 403. */
export function requireRole(c: Context<AppEnv>, policy: Policy): SessionUser {
  const user = requireUser(c);
  if (!can(user.role, policy)) throw forbidden();
  return user;
}

/**
 * requireUser as a route's first middleware: a route whose contract reads a body or query puts it
 * before the parser, so a signed-out caller gets 401 before any 400 about what they sent.
 */
export const signedIn = createMiddleware<AppEnv>(async (c, next) => {
  requireUser(c);
  await next();
});

/** requireRole as a route's first middleware, for the same reason as `signedIn`. */
export function withRole(policy: Policy) {
  return createMiddleware<AppEnv>(async (c, next) => {
    requireRole(c, policy);
    await next();
  });
}
