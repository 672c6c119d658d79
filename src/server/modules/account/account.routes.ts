import { type Context, Hono } from "hono";
import { stream } from "hono/streaming";
import type { Auth } from "#server/auth/auth";
import { requireUser, signedIn } from "#server/auth/session";
import { clientIp } from "#server/http/client-ip";
import type { AppEnv } from "#server/http/context";
import { HttpError, unauthorized } from "#server/http/errors";
import { LIMITS, type RequestLimiter, tooManyRequests } from "#server/http/request-limit";
import { jsonBody } from "#server/http/validation";
import {
  type AccountDeletedResponse,
  type PasswordConfirmedResponse,
  passwordSchema,
  type SessionsResponse,
  type SessionsRevokedResponse,
} from "./account.contract";
import { type AccountService, passwordRequired } from "./account.service";

/**
 * The caller, when their session is fresh (signed in or password entered again within minutes,
 * isFreshSession); otherwise 403 PASSWORD_REQUIRED, which the web app answers by asking for it.
 */
async function requireFreshSession(account: AccountService, c: Context<AppEnv>) {
  const me = requireUser(c);
  const sessionId = c.get("sessionId");
  if (!sessionId || !(await account.isSessionFresh(sessionId))) throw passwordRequired();
  return me;
}

/**
 * Counts one password check against the caller and against their address, as Better Auth limits
 * its own password routes. Past either limit the check is refused before the password is looked
 * at, so a right password changes nothing either: guessing is capped per account even across
 * addresses, and per address even across accounts.
 */
async function limitPasswordChecks(limiter: RequestLimiter, c: Context<AppEnv>, userId: string) {
  const verdicts = await Promise.all([
    limiter.hit("password-checks-per-user", userId, LIMITS.passwordChecksPerUser),
    limiter.hit("password-checks-per-address", clientIp(c), LIMITS.passwordChecksPerAddress),
  ]);
  const waits = verdicts.flatMap((verdict) => (verdict.allowed ? [] : [verdict.retryAfterSeconds]));
  if (waits.length === 0) return;
  const retryAfterSeconds = Math.max(...waits);
  c.header("retry-after", String(retryAfterSeconds));
  throw tooManyRequests(retryAfterSeconds, "Too many password attempts.");
}

/** The signed-in account's own data, devices and deletion; no route here takes another account's id. */
export function accountRoutes(account: AccountService, auth: Auth, limiter: RequestLimiter) {
  return new Hono<AppEnv>()
    .get("/export", async (c) => {
      const me = await requireFreshSession(account, c);
      const verdict = await limiter.hit("exports-per-user", me.id, LIMITS.exportsPerUser);
      if (!verdict.allowed) {
        c.header("retry-after", String(verdict.retryAfterSeconds));
        throw tooManyRequests(verdict.retryAfterSeconds, "You have exported your data several times this hour.");
      }
      const { exportedAt, chunks, finish } = await account.startExport(me.id, c.get("sessionId"));
      const day = exportedAt.toISOString().slice(0, 10);
      c.header("content-disposition", `attachment; filename="jalan-my-data-${day}.json"`);
      c.header("content-type", "application/json; charset=utf-8");
      const log = c.get("logger");
      // Written as it is read (AccountExport, section by section): never one string in memory.
      return stream(
        c,
        async (out) => {
          try {
            for await (const chunk of chunks) {
              if (out.aborted) return;
              await out.write(chunk);
            }
          } finally {
            finish();
          }
        },
        // The status is sent: a failure now can only cut the file short, which no JSON reader takes.
        async (error) => log.error({ err: error, userId: me.id }, "export failed while it was written"),
      );
    })
    .get("/sessions", async (c) => {
      const me = await requireFreshSession(account, c);
      const body: SessionsResponse = { sessions: await account.sessions(me.id, c.get("sessionId")) };
      return c.json(body);
    })
    .post("/confirm-password", signedIn, jsonBody(passwordSchema, { messageFromIssues: true }), async (c) => {
      const me = requireUser(c);
      const sessionId = c.get("sessionId");
      if (!sessionId) throw unauthorized();
      const { password } = c.req.valid("json");
      let confirmed: boolean;
      try {
        await limitPasswordChecks(limiter, c, me.id);
        confirmed = await account.confirmPassword(me.id, sessionId, password);
      } catch (error) {
        if (error instanceof HttpError) {
          c.get("logger").warn({ userId: me.id, code: error.code }, "password confirmation refused");
        }
        throw error;
      }
      // The session was signed out while its password was being checked.
      if (!confirmed) throw unauthorized();
      const body: PasswordConfirmedResponse = { confirmed: true };
      return c.json(body);
    })
    .post("/sessions/revoke-others", async (c) => {
      const me = requireUser(c);
      const current = c.get("sessionId");
      if (!current) throw unauthorized();
      const body: SessionsRevokedResponse = { revoked: await account.revokeOtherSessions(me.id, current) };
      return c.json(body);
    })
    .delete("/", signedIn, jsonBody(passwordSchema, { messageFromIssues: true }), async (c) => {
      const me = requireUser(c);
      const { password } = c.req.valid("json");
      const log = c.get("logger");
      try {
        await limitPasswordChecks(limiter, c, me.id);
        await account.delete(me.id, password);
      } catch (error) {
        if (error instanceof HttpError) log.warn({ userId: me.id, code: error.code }, "account deletion refused");
        throw error;
      }
      log.info({ userId: me.id }, "account deleted");
      // The session is gone with the account; Better Auth's sign-out expires its cookies in the
      // browser, with the names and attributes it set them with.
      const { headers } = await auth.api.signOut({ headers: c.req.raw.headers, returnHeaders: true });
      for (const cookie of headers.getSetCookie()) c.header("set-cookie", cookie, { append: true });
      const body: AccountDeletedResponse = { deleted: true };
      return c.json(body);
    });
}
