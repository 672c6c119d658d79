import { Hono } from "hono";
import { withRole } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { queryOf } from "#server/http/validation";
import type { ContactModule } from "#server/modules/contact/contact.module";
import { type ContactMessagePage, contactMessagesQuerySchema } from "./admin.contract";

/** Everything under /api/admin is for Admins only: signed out gets 401, any other role 403. */
export function adminRoutes(contact: ContactModule["service"]) {
  return new Hono<AppEnv>()
    .use(withRole("admin:view"))
    .get("/contact-messages", queryOf(contactMessagesQuerySchema), async (c) => {
      const body: ContactMessagePage = await contact.list(c.req.valid("query"));
      return c.json(body);
    });
}
