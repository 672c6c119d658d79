import type { Database } from "#server/db/client";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { ReviewModule } from "#server/modules/review/review.module";
import { usersAccountPart } from "./users.account-part";
import { usersRoutes } from "./users.routes";
import { createUsersService } from "./users.service";

/**
 * Accounts for staff: /api/users lists them, changes roles, and reads or sets a learner's progress
 * and review through those modules' services. Its service tells the other modules whether an
 * account exists, keeps Jalan's last Admin, and deletes an account in the account module's
 * transaction.
 */
export function usersModule(deps: {
  db: Database;
  progress: ProgressModule["service"];
  review: ReviewModule["service"];
}) {
  const service = createUsersService(deps.db);
  return {
    service,
    ...defineModule({
      name: "users",
      path: "/users",
      bodyLimit: JSON_BODY_LIMIT,
      routes: usersRoutes(service, deps.progress, deps.review),
      account: usersAccountPart(service),
    }),
  };
}

export type UsersModule = ReturnType<typeof usersModule>;
