import { Hono } from "hono";
import { requireRole } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { badRequest, issuesOf } from "#server/http/errors";
import { pageQuerySchema } from "#server/http/validation";
import type { ContactService } from "#server/modules/contact/contact.service";

/** Everything under /api/admin is for Admins only: signed out gets 401, any other role 403. */
export function adminRoutes(contact: ContactService) {
  return new Hono<AppEnv>()
    .use(async (c, next) => {
      requireRole(c, "admin:view");
      await next();
    })
    .get("/contact-messages", async (c) => {
      const query = pageQuerySchema.safeParse(c.req.query());
      if (!query.success) throw badRequest("The query is not valid.", issuesOf(query.error));
      return c.json(await contact.list(query.data));
    });
}
