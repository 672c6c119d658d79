import { Hono } from "hono";
import type { AppEnv } from "#server/http/context";
import { jsonBody } from "#server/http/validation";
import { type UnsubscribeResponse, unsubscribeRequestSchema } from "./reminders.contract";
import type { RemindersService } from "./reminders.service";

/** The reminder email's unsubscribe link: no session, the token is the proof. */
export function reminderRoutes(reminders: RemindersService) {
  return new Hono<AppEnv>().post("/unsubscribe", jsonBody(unsubscribeRequestSchema), async (c) => {
    const { token } = c.req.valid("json");
    await reminders.unsubscribe(token);
    const body: UnsubscribeResponse = { emailNotifications: false };
    return c.json(body);
  });
}
