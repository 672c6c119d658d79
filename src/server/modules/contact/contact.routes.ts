import { Hono } from "hono";
import { clientIp } from "#server/http/client-ip";
import type { AppEnv } from "#server/http/context";
import { errorJson } from "#server/http/errors";
import { parseJsonBody } from "#server/http/validation";
import { type ContactService, contactMessageSchema, tryAgainMessage } from "./contact.service";

export function contactRoutes(contact: ContactService) {
  return new Hono<AppEnv>().post("/", async (c) => {
    const input = await parseJsonBody(c, contactMessageSchema);
    const result = await contact.submit(input, { userId: c.get("user")?.id ?? null, address: clientIp(c) });
    if (!result.sent) {
      c.header("retry-after", String(result.retryAfterSeconds));
      return errorJson(c, 429, { code: "TOO_MANY_REQUESTS", message: tryAgainMessage(result.retryAfterSeconds) });
    }
    return c.json({ ok: true }, 201);
  });
}
