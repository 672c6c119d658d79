import { Hono } from "hono";
import { requireUser } from "../../auth/session";
import type { AppEnv } from "../../http/context";
import { parseJsonBody } from "../../http/validation";
import { type ProgressService, progressUpdateSchema } from "./progress.service";

/** The signed-in user's own progress: the user always comes from the session, never the URL. */
export function progressRoutes(progress: ProgressService) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const me = requireUser(c);
      return c.json({ progress: await progress.read(me.id) });
    })
    .put("/:chapterId/:dayId/:taskId", async (c) => {
      const me = requireUser(c);
      const { status } = await parseJsonBody(c, progressUpdateSchema);
      const { chapterId, dayId, taskId } = c.req.param();
      return c.json({ progress: await progress.record(me, { chapterId, dayId, taskId }, status) });
    });
}
