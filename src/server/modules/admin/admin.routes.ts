import { Hono } from "hono";
import { z } from "zod";
import { requireRole } from "../../auth/session";
import type { AppEnv } from "../../http/context";
import { badRequest, issuesOf } from "../../http/errors";
import type { ContactService } from "../contact/contact.service";

const MAX_PER_PAGE = 100;

const wholeNumber = (name: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${name} must be a whole number from ${min} to ${max}.` })
    .int(`${name} must be a whole number from ${min} to ${max}.`)
    .min(min, `${name} must be at least ${min}.`)
    .max(max, `${name} must be at most ${max}.`);

export const pageQuerySchema = z.object({
  page: wholeNumber("page", 1, 1_000_000).default(1),
  perPage: wholeNumber("perPage", 1, MAX_PER_PAGE).default(20),
});

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
