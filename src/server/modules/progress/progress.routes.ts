import { Hono } from "hono";
import type { Chapter } from "#course/course";
import { completionOf, type TaskCompletion } from "#course/course";
import { requireUser, signedIn } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { HttpError } from "#server/http/errors";
import { jsonBody } from "#server/http/validation";
import { type ProgressView, progressUpdateSchema } from "./progress.contract";
import type { ProgressService } from "./progress.service";

/** Why a bare status write may not complete a task, by what does complete it. */
const COMPLETED_BY: Record<Exclude<TaskCompletion, "status">, { code: string; message: string }> = {
  answers: { code: "ANSWER_REQUIRED", message: "This task is completed by answering its practice set." },
  voice: {
    code: "SPEAKING_REQUIRED",
    message:
      "This task is completed by speaking: say each of its lines (record it or mark it said aloud), or do its role-play alone or with a tutor.",
  },
};

/**
 * The signed-in user's own progress: the user always comes from the session, never the URL. A
 * practice set's task is completed by answering its items (POST /api/answers), and a spoken task by
 * the learner's voice (/api/speaking), never by a bare status write here, by learners or staff;
 * staff set them for a learner through /api/users/…/progress. Opening either may record it in progress.
 */
export function progressRoutes(progress: ProgressService, course: readonly Chapter[]) {
  return new Hono<AppEnv>()
    .get("/", signedIn, async (c) => {
      const body: ProgressView = await progress.read(requireUser(c).id);
      return c.json(body);
    })
    .put("/:chapterId/:dayId/:taskId", signedIn, jsonBody(progressUpdateSchema), async (c) => {
      const me = requireUser(c);
      const { status } = c.req.valid("json");
      const { chapterId, dayId, taskId } = c.req.param();
      const completion = completionOf(course, { chapterId, dayId, taskId });
      if (status === "completed" && completion !== "status") {
        const { code, message } = COMPLETED_BY[completion];
        throw new HttpError(409, code, message);
      }
      const body: ProgressView = await progress.record(me, { chapterId, dayId, taskId }, status);
      return c.json(body);
    });
}
