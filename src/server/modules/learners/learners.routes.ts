import { Hono } from "hono";
import { requireRole, withRole } from "#server/auth/session";
import { audit } from "#server/http/audit";
import { clientIp } from "#server/http/client-ip";
import type { AppEnv } from "#server/http/context";
import { jsonBody } from "#server/http/validation";
import { type ProgressView, staffProgressUpdateSchema } from "#server/modules/progress/progress.contract";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import { type PinResponse, pinRequestSchema, type StruggleReport } from "#server/modules/review/review.contract";
import type { ReviewModule } from "#server/modules/review/review.module";
import type { ProgressResetResponse } from "./learners.contract";

/**
 * A learner's progress and review, for staff. The role is checked before anything else is read, so
 * a learner learns nothing from this API, not even whether an id exists, and a learner addressing
 * their own id is refused too: their own progress is /api/progress.
 */
export function learnerRoutes(progress: ProgressModule["service"], review: ReviewModule["service"]) {
  return (
    new Hono<AppEnv>()
      .get("/:userId/progress", withRole("tutor:view"), async (c) => {
        const staff = requireRole(c, "tutor:view");
        const body: ProgressView = await progress.readFor(staff, c.req.param("userId"));
        return c.json(body);
      })
      .put(
        "/:userId/progress/:chapterId/:dayId/:taskId",
        withRole("tutor:view"),
        jsonBody(staffProgressUpdateSchema),
        async (c) => {
          const staff = requireRole(c, "tutor:view");
          const { status } = c.req.valid("json");
          const { userId, chapterId, dayId, taskId } = c.req.param();
          const body: ProgressView = await progress.setFor(staff, userId, { chapterId, dayId, taskId }, status);
          return c.json(body);
        },
      )
      .delete("/:userId/progress", withRole("tutor:view"), async (c) => {
        const staff = requireRole(c, "tutor:view");
        const targetUserId = c.req.param("userId");
        const deleted = await progress.resetFor(staff, targetUserId);
        audit(c.get("logger"), "progress_reset", { userId: staff.id, targetUserId, count: deleted, ip: clientIp(c) });
        const body: ProgressResetResponse = { deleted };
        return c.json(body);
      })
      // A learner's struggles, and pinning a phrase into their review.
      .get("/:userId/review", withRole("tutor:view"), async (c) => {
        const staff = requireRole(c, "tutor:view");
        const body: StruggleReport = await review.struggles(staff, c.req.param("userId"));
        return c.json(body);
      })
      .post("/:userId/review/pins", withRole("tutor:view"), jsonBody(pinRequestSchema), async (c) => {
        const staff = requireRole(c, "tutor:view");
        const body: PinResponse = await review.pin(staff, c.req.param("userId"), c.req.valid("json"));
        return c.json(body);
      })
  );
}
