import { Hono } from "hono";
import { requireUser } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { parseJsonBody } from "#server/http/validation";
import { type SettingsService, settingsUpdateSchema } from "./settings.service";

/** The signed-in account's own settings; there is no way to address another account's. */
export function settingsRoutes(settings: SettingsService) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const me = requireUser(c);
      return c.json({ settings: await settings.get(me.id) });
    })
    .patch("/", async (c) => {
      const me = requireUser(c);
      const changes = await parseJsonBody(c, settingsUpdateSchema, { messageFromIssues: true });
      return c.json({ settings: await settings.update(me.id, changes) });
    });
}
