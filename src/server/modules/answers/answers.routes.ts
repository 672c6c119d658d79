import { Hono } from "hono";
import { requireUser, signedIn } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { limitAnswers, type RequestLimiter } from "#server/http/request-limit";
import { jsonBody } from "#server/http/validation";
import { type AnswerResponse, answerRequestSchema, type PracticeProgress } from "./answers.contract";
import type { AnswersService } from "./answers.service";

/**
 * The signed-in user's answers to practice sets, with the request and answer schemas of
 * answers.contract.ts. The user always comes from the session. A resend of a stored answer gets the
 * same 200 and body as the first send.
 */
export function answersRoutes(answers: AnswersService, limiter: RequestLimiter) {
  return new Hono<AppEnv>()
    .post("/", signedIn, limitAnswers(limiter), jsonBody(answerRequestSchema), async (c) => {
      const me = requireUser(c);
      const body: AnswerResponse = await answers.answer(me, c.req.valid("json"));
      return c.json(body);
    })
    .get("/:chapterId/:dayId/:taskId", signedIn, async (c) => {
      const me = requireUser(c);
      const { chapterId, dayId, taskId } = c.req.param();
      const body: PracticeProgress = await answers.practiceProgress(me, { chapterId, dayId, taskId });
      return c.json(body);
    });
}
