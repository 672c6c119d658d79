import { Hono } from "hono";
import { requireUser, signedIn } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { jsonBody } from "#server/http/validation";
import { type SettingsResponse, settingsUpdateSchema } from "./settings.contract";
import type { SettingsService } from "./settings.service";

/** The signed-in account's own settings; there is no way to address another account's. */
export function settingsRoutes(settings: SettingsService) {
  return new Hono<AppEnv>()
    .get("/", signedIn, async (c) => {
      const me = requireUser(c);
      const body: SettingsResponse = { settings: await settings.get(me.id) };
      return c.json(body);
    })
    .patch("/", signedIn, jsonBody(settingsUpdateSchema, { messageFromIssues: true }), async (c) => {
      const me = requireUser(c);
      const body: SettingsResponse = { settings: await settings.update(me.id, c.req.valid("json")) };
      return c.json(body);
    });
}
