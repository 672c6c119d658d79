import type { Database } from "#server/db/client";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { usersAccountPart } from "./users.account-part";
import { usersRoutes } from "./users.routes";
import { createUsersService } from "./users.service";

/**
 * The one owner of people: its service answers any module the display facts of a set of users
 * (people), tells whether an account exists, keeps Jalan's last Admin, and deletes an account in the
 * account module's transaction; /api/users lists accounts for staff and changes roles. A learner's
 * progress and review under /api/users/:userId are the learners module's.
 */
export function usersModule(deps: { db: Database }) {
  const service = createUsersService(deps.db);
  return {
    service,
    ...defineModule({
      name: "users",
      path: "/users",
      bodyLimit: JSON_BODY_LIMIT,
      routes: usersRoutes(service),
      account: usersAccountPart(service),
    }),
  };
}

export type UsersModule = ReturnType<typeof usersModule>;
