import { Hono } from "hono";
import { pinRequestSchema } from "#course/review-contract";
import { requireRole } from "#server/auth/session";
import { audit } from "#server/http/audit";
import { clientIp } from "#server/http/client-ip";
import type { AppEnv } from "#server/http/context";
import { parseJsonBody, parseQuery } from "#server/http/validation";
import { staffProgressUpdateSchema } from "#server/modules/progress/progress.contract";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { ReviewModule } from "#server/modules/review/review.module";
import { roleChangeSchema, type UsersService, usersQuerySchema } from "./users.service";

/**
 * Accounts and their progress, for staff. The role is checked before anything else is read, so a
 * learner learns nothing from this API, not even whether an id exists, and a learner addressing
 * their own id is refused too: their own progress is /api/progress.
 */
export function usersRoutes(users: UsersService, progress: ProgressModule["service"], review: ReviewModule["service"]) {
  return (
    new Hono<AppEnv>()
      .get("/", async (c) => {
        requireRole(c, "tutor:view");
        return c.json(await users.list(parseQuery(c, usersQuerySchema)));
      })
      .patch("/:userId/role", async (c) => {
        const admin = requireRole(c, "admin:view");
        const { role } = await parseJsonBody(c, roleChangeSchema);
        const { user, previousRole } = await users.changeRole(admin.id, c.req.param("userId"), role);
        if (previousRole !== user.role) {
          audit(c.get("logger"), "role_change", {
            userId: admin.id,
            targetUserId: user.id,
            from: previousRole,
            to: user.role,
            ip: clientIp(c),
          });
        }
        return c.json({ user });
      })
      .get("/:userId/progress", async (c) => {
        requireRole(c, "tutor:view");
        return c.json(await progress.readFor(c.req.param("userId")));
      })
      .put("/:userId/progress/:chapterId/:dayId/:taskId", async (c) => {
        requireRole(c, "tutor:view");
        const { status } = await parseJsonBody(c, staffProgressUpdateSchema);
        const { userId, chapterId, dayId, taskId } = c.req.param();
        return c.json(await progress.setFor(userId, { chapterId, dayId, taskId }, status));
      })
      .delete("/:userId/progress", async (c) => {
        const staff = requireRole(c, "tutor:view");
        const targetUserId = c.req.param("userId");
        const deleted = await progress.resetFor(targetUserId);
        audit(c.get("logger"), "progress_reset", { userId: staff.id, targetUserId, count: deleted, ip: clientIp(c) });
        return c.json({ deleted });
      })
      // A learner's struggles, and pinning a phrase into their review.
      .get("/:userId/review", async (c) => {
        requireRole(c, "tutor:view");
        return c.json(await review.struggles(c.req.param("userId")));
      })
      .post("/:userId/review/pins", async (c) => {
        const staff = requireRole(c, "tutor:view");
        const target = await parseJsonBody(c, pinRequestSchema);
        return c.json(await review.pin(staff.id, c.req.param("userId"), target));
      })
  );
}
