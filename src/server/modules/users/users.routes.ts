import { Hono } from "hono";
import { requireRole } from "../../auth/session";
import type { AppEnv } from "../../http/context";
import { parseJsonBody, parseQuery } from "../../http/validation";
import { type ProgressService, staffProgressUpdateSchema } from "../progress/progress.service";
import { roleChangeSchema, type UsersService, usersQuerySchema } from "./users.service";

/**
 * Accounts and their progress, for staff. The role is checked before anything else is read, so a
 * learner learns nothing from this API, not even whether an id exists, and a learner addressing
 * their own id is refused too: their own progress is /api/progress.
 */
export function usersRoutes(users: UsersService, progress: ProgressService) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      requireRole(c, "tutor:view");
      return c.json(await users.list(parseQuery(c, usersQuerySchema)));
    })
    .patch("/:userId/role", async (c) => {
      const admin = requireRole(c, "admin:view");
      const { role } = await parseJsonBody(c, roleChangeSchema);
      return c.json({ user: await users.changeRole(admin.id, c.req.param("userId"), role) });
    })
    .get("/:userId/progress", async (c) => {
      requireRole(c, "tutor:view");
      return c.json({ progress: await progress.readFor(c.req.param("userId")) });
    })
    .put("/:userId/progress/:chapterId/:dayId/:taskId", async (c) => {
      const staff = requireRole(c, "tutor:view");
      const { status } = await parseJsonBody(c, staffProgressUpdateSchema);
      const { userId, chapterId, dayId, taskId } = c.req.param();
      return c.json({ progress: await progress.setFor(staff, userId, { chapterId, dayId, taskId }, status) });
    })
    .delete("/:userId/progress", async (c) => {
      requireRole(c, "tutor:view");
      return c.json({ deleted: await progress.resetFor(c.req.param("userId")) });
    });
}
