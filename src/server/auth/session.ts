import type { Context, MiddlewareHandler } from "hono";
import { can, isRole, type Policy } from "../../course/roles";
import type { AppEnv, SessionUser } from "../http/context";
import { forbidden, unauthorized } from "../http/errors";
import type { Auth } from "./auth";

/**
 * Reads the session cookie through Better Auth and puts the user on the context. When Better Auth
 * renews the session it answers with a fresh cookie, which is passed on to the response unless the
 * handler set that cookie itself.
 */
export function loadSession(auth: Auth): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set("user", null);
    c.set("sessionId", null);
    if (c.req.header("cookie")) {
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
      return;
    }
    await next();
  };
}

const cookieName = (setCookie: string) => setCookie.slice(0, setCookie.indexOf("="));

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
