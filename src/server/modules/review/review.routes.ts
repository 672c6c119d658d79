import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { z } from "zod";
import { requireUser, signedIn } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { badRequest } from "#server/http/errors";
import { limitAnswers, type RequestLimiter } from "#server/http/request-limit";
import { jsonBody } from "#server/http/validation";
import {
  type HardestCards,
  type ReviewAnswerResponse,
  type ReviewQuery,
  type ReviewRound,
  type ReviewSummary,
  reviewAnswerRequestSchema,
  reviewQuerySchema,
} from "./review.contract";
import type { ReviewService } from "./review.service";

/**
 * `?timeZone=`: where the learner is now, for "today"; the account's zone when absent. A zone that
 * is not one is refused in the schema's own words, not queryOf's "The query is not valid.".
 */
const timeZoneQuery = createMiddleware<
  AppEnv,
  string,
  { in: { query: ReviewQuery }; out: { query: z.output<typeof reviewQuerySchema> } }
>(async (c, next) => {
  const timeZone = c.req.query("timeZone");
  const parsed = reviewQuerySchema.safeParse(timeZone === undefined ? {} : { timeZone });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message);
  c.req.addValidatedData("query", parsed.data);
  await next();
});

/** The signed-in learner's own review (review.contract.ts). */
export function reviewRoutes(review: ReviewService, limiter: RequestLimiter) {
  return new Hono<AppEnv>()
    .get("/", signedIn, timeZoneQuery, async (c) => {
      const me = requireUser(c);
      const body: ReviewRound = await review.round(me.id, c.req.valid("query").timeZone);
      return c.json(body);
    })
    .get("/summary", signedIn, timeZoneQuery, async (c) => {
      const me = requireUser(c);
      const body: ReviewSummary = await review.summary(me.id, c.req.valid("query").timeZone);
      return c.json(body);
    })
    .get("/hardest/:chapterId", signedIn, async (c) => {
      const me = requireUser(c);
      const body: HardestCards = await review.hardest(me.id, c.req.param("chapterId"));
      return c.json(body);
    })
    .post("/answers", signedIn, limitAnswers(limiter), jsonBody(reviewAnswerRequestSchema), async (c) => {
      const me = requireUser(c);
      const body: ReviewAnswerResponse = await review.answer(me.id, c.req.valid("json"));
      return c.json(body);
    });
}
