import { Hono } from "hono";
import { unsubscribeRequestSchema } from "#course/review-contract";
import type { AppEnv } from "#server/http/context";
import { jsonBody } from "#server/http/validation";
import type { ReviewModule } from "#server/modules/review/review.module";

/** The reminder email's unsubscribe link: no session, the token is the proof. */
export function reminderRoutes(review: ReviewModule["service"], secret: string) {
  return new Hono<AppEnv>().post("/unsubscribe", jsonBody(unsubscribeRequestSchema), async (c) => {
    const { token } = c.req.valid("json");
    await review.unsubscribe(secret, token);
    return c.json({ emailNotifications: false });
  });
}
