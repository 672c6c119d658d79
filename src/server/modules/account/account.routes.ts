import { Hono } from "hono";
import type { Auth } from "../../auth/auth";
import { requireUser } from "../../auth/session";
import type { AppEnv } from "../../http/context";
import type { RequestLimiter } from "../../http/request-limit";
import { HttpError, unauthorized } from "../../http/errors";
import { parseJsonBody } from "../../http/validation";
import { type AccountService, accountDeletionSchema } from "./account.service";

/** The signed-in account's own data, devices and deletion; no route here takes another account's id. */
export function accountRoutes(account: AccountService, auth: Auth, limiter: RequestLimiter) {
  return new Hono<AppEnv>()
    .get("/export", async (c) => {
      const me = requireUser(c);
      const data = await account.export(me.id, c.get("sessionId"));
      const day = data.exportedAt.toISOString().slice(0, 10);
      c.header("content-disposition", `attachment; filename="jalan-my-data-${day}.json"`);
      return c.json(data);
    })
    .get("/sessions", async (c) => {
      const me = requireUser(c);
      return c.json({ sessions: await account.sessions(me.id, c.get("sessionId")) });
    })
    .post("/sessions/revoke-others", async (c) => {
      const me = requireUser(c);
      const current = c.get("sessionId");
      if (!current) throw unauthorized();
      return c.json({ revoked: await account.revokeOtherSessions(me.id, current) });
    })
    .delete("/", async (c) => {
      const me = requireUser(c);
      const { password } = await parseJsonBody(c, accountDeletionSchema, { messageFromIssues: true });
      const log = c.get("logger");
      try {
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
      return c.json({ deleted: true });
    });
}
