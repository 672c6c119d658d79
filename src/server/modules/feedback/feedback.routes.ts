import { Hono } from "hono";
import { requireRole, requireUser, signedIn, withRole } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { jsonBody } from "#server/http/validation";
import {
  type FeedbackCorrected,
  type FeedbackCreated,
  type FeedbackList,
  type FeedbackWithdrawn,
  feedbackCorrectionSchema,
  feedbackInputSchema,
  type SentFeedbackList,
} from "./feedback.contract";
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
    })
    .get("/learners/:studentId", withRole("tutor:view"), async (c) => {
      const staff = requireRole(c, "tutor:view");
      const body: SentFeedbackList = { feedback: await feedback.sentTo(staff, c.req.param("studentId")) };
      return c.json(body);
    })
    .patch(
      "/:id",
      withRole("tutor:view"),
      jsonBody(feedbackCorrectionSchema, { messageFromIssues: true }),
      async (c) => {
        const staff = requireRole(c, "tutor:view");
        const { feedback: text } = c.req.valid("json");
        const body: FeedbackCorrected = { feedback: await feedback.correct(staff, c.req.param("id"), text) };
        return c.json(body);
      },
    )
    .delete("/:id", withRole("tutor:view"), async (c) => {
      const id = c.req.param("id");
      await feedback.withdraw(requireRole(c, "tutor:view"), id);
      const body: FeedbackWithdrawn = { withdrawn: id };
      return c.json(body);
    });
}
