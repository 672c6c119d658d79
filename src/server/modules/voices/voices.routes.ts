import { Hono } from "hono";
import { requireRole, requireUser, signedIn, withRole } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { jsonBody } from "#server/http/validation";
import {
  type MyVoiceResponse,
  type VoiceChanged,
  type VoiceGranted,
  type VoiceList,
  type VoiceRevoked,
  voiceChangeSchema,
  voiceGrantSchema,
} from "./voices.contract";
import type { VoicesService } from "./voices.service";

/**
 * Voices: Admins grant, change and revoke them; each voice reads their own grant and gives or
 * withdraws consent under /me. Whether a signed-in user is a voice is the service's to judge.
 */
export function voicesRoutes(voices: VoicesService) {
  return new Hono<AppEnv>()
    .get("/", withRole("admin:view"), async (c) => {
      const body: VoiceList = { voices: await voices.list() };
      return c.json(body);
    })
    .post("/", withRole("admin:view"), jsonBody(voiceGrantSchema, { messageFromIssues: true }), async (c) => {
      const admin = requireRole(c, "admin:view");
      const body: VoiceGranted = { voice: await voices.grant(admin.id, c.req.valid("json")) };
      return c.json(body, 201);
    })
    .get("/me", signedIn, async (c) => {
      const body: MyVoiceResponse = await voices.mine(requireUser(c));
      return c.json(body);
    })
    .post("/me/consent", signedIn, async (c) => {
      const body: MyVoiceResponse = await voices.consent(requireUser(c));
      return c.json(body);
    })
    .delete("/me/consent", signedIn, async (c) => {
      const body: MyVoiceResponse = await voices.withdraw(requireUser(c));
      return c.json(body);
    })
    .patch("/:userId", withRole("admin:view"), jsonBody(voiceChangeSchema, { messageFromIssues: true }), async (c) => {
      const body: VoiceChanged = { voice: await voices.change(c.req.param("userId"), c.req.valid("json")) };
      return c.json(body);
    })
    .delete("/:userId", withRole("admin:view"), async (c) => {
      const userId = c.req.param("userId");
      await voices.revoke(userId);
      const body: VoiceRevoked = { revoked: userId };
      return c.json(body);
    });
}
