import { Hono } from "hono";
import type { Chapter } from "#course/course";
import { isPracticeTask } from "#course/course";
import { requireUser, signedIn } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { HttpError } from "#server/http/errors";
import { jsonBody } from "#server/http/validation";
import { type ProgressView, progressUpdateSchema } from "./progress.contract";
import type { ProgressService } from "./progress.service";

/**
 * The signed-in user's own progress: the user always comes from the session, never the URL. A
 * practice set's task is completed by answering its items (POST /api/answers), never by a bare
 * status write here, by learners or staff; staff set it for a learner through /api/users/…/progress.
 * Opening the set may record it in progress.
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
      if (status === "completed" && isPracticeTask(course, { chapterId, dayId, taskId })) {
        throw new HttpError(409, "ANSWER_REQUIRED", "This task is completed by answering its practice set.");
      }
      const body: ProgressView = await progress.record(me, { chapterId, dayId, taskId }, status);
      return c.json(body);
    });
}
