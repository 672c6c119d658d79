import { Hono } from "hono";
import { requireRole, withRole } from "#server/auth/session";
import { audit } from "#server/http/audit";
import { clientIp } from "#server/http/client-ip";
import type { AppEnv } from "#server/http/context";
import { jsonBody, queryOf } from "#server/http/validation";
import { type RoleChangeResponse, roleChangeSchema, type UserPage, usersQuerySchema } from "./users.contract";
import type { UsersService } from "./users.service";

/**
 * Accounts, for staff: a page of them, searched, and an Admin's change of a role. The role is
 * checked before anything else is read, so a learner learns nothing from this API. A Tutor sees
 * Students only, an Admin anyone. A learner's progress and review, under the same path, are the
 * learners module's (learners.routes.ts).
 */
export function usersRoutes(users: UsersService) {
  return new Hono<AppEnv>()
    .get("/", withRole("tutor:view"), queryOf(usersQuerySchema), async (c) => {
      const staff = requireRole(c, "tutor:view");
      const body: UserPage = await users.list(staff.role, c.req.valid("query"));
      return c.json(body);
    })
    .patch("/:userId/role", withRole("admin:view"), jsonBody(roleChangeSchema), async (c) => {
      const admin = requireRole(c, "admin:view");
      const { role } = c.req.valid("json");
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
      const body: RoleChangeResponse = { user };
      return c.json(body);
    });
}
