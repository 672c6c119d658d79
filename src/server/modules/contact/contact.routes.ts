import { Hono } from "hono";
import { clientIp } from "#server/http/client-ip";
import type { AppEnv } from "#server/http/context";
import type { ErrorBody } from "#server/http/errors";
import { jsonBody } from "#server/http/validation";
import { type ContactSentResponse, contactMessageSchema } from "./contact.contract";
import { type ContactService, tryAgainMessage } from "./contact.service";

export function contactRoutes(contact: ContactService) {
  return new Hono<AppEnv>().post("/", jsonBody(contactMessageSchema), async (c) => {
    const input = c.req.valid("json");
    const result = await contact.submit(input, { userId: c.get("user")?.id ?? null, address: clientIp(c) });
    if (!result.sent) {
      c.header("retry-after", String(result.retryAfterSeconds));
      // The error shape (errorJson), with its status as a literal: the typed client tells it from the 201.
      const error: ErrorBody = {
        error: { code: "TOO_MANY_REQUESTS", message: tryAgainMessage(result.retryAfterSeconds) },
      };
      return c.json(error, 429);
    }
    const body: ContactSentResponse = { ok: true };
    return c.json(body, 201);
  });
}
