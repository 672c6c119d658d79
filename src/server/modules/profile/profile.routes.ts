import { Hono } from "hono";
import { requireUser, signedIn } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { jsonBody } from "#server/http/validation";
import { avatarBodyLimit, avatarForm } from "./avatar-upload";
import { type ProfileResponse, profileUpdateSchema } from "./profile.contract";
import type { ProfileService } from "./profile.service";

export function profileRoutes(profiles: ProfileService) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const me = requireUser(c);
      const body: ProfileResponse = { profile: await profiles.get(me.id) };
      return c.json(body);
    })
    .patch("/", signedIn, jsonBody(profileUpdateSchema), async (c) => {
      const me = requireUser(c);
      const body: ProfileResponse = { profile: await profiles.update(me.id, c.req.valid("json")) };
      return c.json(body);
    })
    .put("/avatar", avatarBodyLimit, signedIn, avatarForm, async (c) => {
      const me = requireUser(c);
      const { avatar } = c.req.valid("form");
      const bytes = new Uint8Array(await avatar.arrayBuffer());
      const body: ProfileResponse = { profile: await profiles.replaceAvatar(me.id, bytes) };
      return c.json(body);
    });
}
