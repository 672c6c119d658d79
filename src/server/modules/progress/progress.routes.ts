import { Hono } from "hono";
import type { Chapter } from "../../../course/course";
import { isPracticeTask } from "../../../course/course";
import { requireUser } from "../../auth/session";
import type { AppEnv } from "../../http/context";
import { HttpError } from "../../http/errors";
import { parseJsonBody } from "../../http/validation";
import { type ProgressService, progressUpdateSchema } from "./progress.service";

/**
 * The signed-in user's own progress: the user always comes from the session, never the URL. A
 * practice set's task is completed by answering its items (POST /api/answers), never by a bare
 * status write here, by learners or staff; staff set it for a learner through /api/users/…/progress.
 * Opening the set may record it in progress.
 */
export function progressRoutes(progress: ProgressService, course: readonly Chapter[]) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const me = requireUser(c);
      return c.json(await progress.read(me.id));
    })
    .put("/:chapterId/:dayId/:taskId", async (c) => {
      const me = requireUser(c);
      const { status } = await parseJsonBody(c, progressUpdateSchema);
      const { chapterId, dayId, taskId } = c.req.param();
      if (status === "completed" && isPracticeTask(course, { chapterId, dayId, taskId })) {
        throw new HttpError(409, "ANSWER_REQUIRED", "This task is completed by answering its practice set.");
      }
      return c.json(await progress.record(me, { chapterId, dayId, taskId }, status));
    });
}
