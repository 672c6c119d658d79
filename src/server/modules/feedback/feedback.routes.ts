import { Hono } from "hono";
import { requireRole, requireUser } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { parseJsonBody } from "#server/http/validation";
import { type FeedbackService, feedbackInputSchema } from "./feedback.service";

export function feedbackRoutes(feedback: FeedbackService) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const me = requireUser(c);
      return c.json({ feedback: await feedback.received(me.id) });
    })
    .post("/", async (c) => {
      const staff = requireRole(c, "tutor:view");
      const input = await parseJsonBody(c, feedbackInputSchema, { messageFromIssues: true });
      return c.json({ feedback: await feedback.submit(staff.id, input) }, 201);
    });
}
