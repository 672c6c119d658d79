import { Hono } from "hono";
import type { z } from "zod";
import {
  pinRequestSchema,
  type ReviewAnswerResponse,
  reviewAnswerRequestSchema,
  timeZoneSchema,
  unsubscribeRequestSchema,
} from "../../../course/review-contract";
import { requireRole, requireUser } from "../../auth/session";
import type { AppEnv } from "../../http/context";
import { badRequest } from "../../http/errors";
import { parseJsonBody } from "../../http/validation";
import type { ReviewService } from "./review.service";

/** `?timeZone=`: where the learner is now, for "today"; the account's zone when absent. */
function timeZoneQuery(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = timeZoneSchema.safeParse(value);
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
  return parsed.data;
}

/** The signed-in learner's own review (src/course/review-contract.ts). */
export function reviewRoutes(review: ReviewService) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const me = requireUser(c);
      return c.json(await review.round(me.id, timeZoneQuery(c.req.query("timeZone"))));
    })
    .get("/summary", async (c) => {
      const me = requireUser(c);
      return c.json(await review.summary(me.id, timeZoneQuery(c.req.query("timeZone"))));
    })
    .get("/hardest/:chapterId", async (c) => {
      const me = requireUser(c);
      return c.json(await review.hardest(me.id, c.req.param("chapterId")));
    })
    .post("/answers", async (c) => {
      const me = requireUser(c);
      const request: z.output<typeof reviewAnswerRequestSchema> = await parseJsonBody(c, reviewAnswerRequestSchema);
      const body: ReviewAnswerResponse = await review.answer(me.id, request);
      return c.json(body);
    });
}

/** For staff, under /api/users: a learner's struggles, and pinning a phrase into their review. */
export function reviewStaffRoutes(review: ReviewService) {
  return new Hono<AppEnv>()
    .get("/:userId/review", async (c) => {
      requireRole(c, "tutor:view");
      return c.json(await review.struggles(c.req.param("userId")));
    })
    .post("/:userId/review/pins", async (c) => {
      const staff = requireRole(c, "tutor:view");
      const target = await parseJsonBody(c, pinRequestSchema);
      return c.json(await review.pin(staff.id, c.req.param("userId"), target));
    });
}

/** The reminder email's unsubscribe link: no session, the token is the proof. */
export function reminderRoutes(review: ReviewService, secret: string) {
  return new Hono<AppEnv>().post("/unsubscribe", async (c) => {
    const { token } = await parseJsonBody(c, unsubscribeRequestSchema);
    await review.unsubscribe(secret, token);
    return c.json({ emailNotifications: false });
  });
}
