import { Hono } from "hono";
import type { AppEnv } from "#server/http/context";
import { badRequest, issuesOf } from "#server/http/errors";
import { jsonBody, queryOf } from "#server/http/validation";
import {
  oneClickFormSchema,
  oneClickQuerySchema,
  UNSUBSCRIBE_LINK_NOT_VALID,
  type UnsubscribeResponse,
  unsubscribeRequestSchema,
} from "./reminders.contract";
import type { RemindersService } from "./reminders.service";

const unsubscribed: UnsubscribeResponse = { emailNotifications: false };

/** The reminder email's unsubscribe link and its one-click POST: no session, the token is the proof. */
export function reminderRoutes(reminders: RemindersService) {
  return new Hono<AppEnv>()
    .post("/unsubscribe", jsonBody(unsubscribeRequestSchema), async (c) => {
      await reminders.unsubscribe(c.req.valid("json").token);
      return c.json(unsubscribed);
    })
    .post("/one-click", queryOf(oneClickQuerySchema), async (c) => {
      // One token, given once: a repeated parameter is not read as its first value.
      if (c.req.queries("token")?.length !== 1) throw badRequest(UNSUBSCRIBE_LINK_NOT_VALID);
      // A form, URL-encoded or multipart (RFC 8058); any other body reads as no fields.
      let form: unknown;
      try {
        form = await c.req.parseBody();
      } catch {
        throw badRequest("The request body is not a valid form.");
      }
      const parsed = oneClickFormSchema.safeParse(form);
      if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message, issuesOf(parsed.error));
      await reminders.unsubscribe(c.req.valid("query").token);
      return c.json(unsubscribed);
    });
}
