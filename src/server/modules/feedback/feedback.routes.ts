import { Hono } from "hono";
import { requireRole, requireUser, signedIn, withRole } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { jsonBody } from "#server/http/validation";
import { type FeedbackCreated, type FeedbackList, feedbackInputSchema } from "./feedback.contract";
import type { FeedbackService } from "./feedback.service";

export function feedbackRoutes(feedback: FeedbackService) {
  return new Hono<AppEnv>()
    .get("/", signedIn, async (c) => {
      const me = requireUser(c);
      const body: FeedbackList = { feedback: await feedback.received(me.id) };
      return c.json(body);
    })
    .post("/", withRole("tutor:view"), jsonBody(feedbackInputSchema, { messageFromIssues: true }), async (c) => {
      const staff = requireRole(c, "tutor:view");
      const body: FeedbackCreated = { feedback: await feedback.submit(staff, c.req.valid("json")) };
      return c.json(body, 201);
    });
}
