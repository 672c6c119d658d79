import { Hono } from "hono";
import type { z } from "zod";
import { type ReviewAnswerResponse, reviewAnswerRequestSchema, timeZoneSchema } from "#course/review-contract";
import { requireUser } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { badRequest } from "#server/http/errors";
import { parseJsonBody } from "#server/http/validation";
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
