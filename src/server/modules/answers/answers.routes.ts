import { Hono } from "hono";
import { type AnswerResponse, answerRequestSchema, type PracticeProgress } from "#course/answers-contract";
import { requireUser } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { parseJsonBody } from "#server/http/validation";
import type { AnswersService } from "./answers.service";

/**
 * The signed-in user's answers to practice sets, with the request and answer schemas of
 * src/course/answers-contract.ts. The user always comes from the session. A resend of a stored
 * answer gets the same 200 and body as the first send.
 */
export function answersRoutes(answers: AnswersService) {
  return new Hono<AppEnv>()
    .post("/", async (c) => {
      const me = requireUser(c);
      const request = await parseJsonBody(c, answerRequestSchema);
      const body: AnswerResponse = await answers.answer(me, request);
      return c.json(body);
    })
    .get("/:chapterId/:dayId/:taskId", async (c) => {
      const me = requireUser(c);
      const { chapterId, dayId, taskId } = c.req.param();
      const body: PracticeProgress = await answers.practiceProgress(me, { chapterId, dayId, taskId });
      return c.json(body);
    });
}
