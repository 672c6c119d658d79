import type { Auth } from "#server/auth/auth";
import { createPasswordCheck } from "#server/auth/password-check";
import type { Database } from "#server/db/client";
import type { RequestLimiter } from "#server/http/request-limit";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { ReviewModule } from "#server/modules/review/review.module";
import type { FileStorage } from "#server/storage/storage";
import { accountRoutes } from "./account.routes";
import { createAccountService } from "./account.service";

/** The signed-in account's export, devices and deletion: /api/account. */
export function accountModule(deps: {
  db: Database;
  storage: FileStorage;
  auth: Auth;
  limiter: RequestLimiter;
  review: ReviewModule["service"];
}) {
  const service = createAccountService({
    db: deps.db,
    storage: deps.storage,
    checkPassword: createPasswordCheck(deps.auth),
    review: deps.review,
  });
  return {
    service,
    ...defineModule({
      name: "account",
      path: "/account",
      bodyLimit: JSON_BODY_LIMIT,
      routes: accountRoutes(service, deps.auth, deps.limiter),
    }),
  };
}

export type AccountModule = ReturnType<typeof accountModule>;
