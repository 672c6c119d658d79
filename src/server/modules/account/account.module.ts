import type { Auth } from "#server/auth/auth";
import { createPasswordCheck } from "#server/auth/password-check";
import type { RequestLimiter } from "#server/http/request-limit";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { accountRoutes } from "./account.routes";
import { type AccountDeps, createAccountService } from "./account.service";

/**
 * The signed-in account's export, devices and deletion: /api/account. The export is every module's
 * part (their services' exportFor); the deletion runs through the users module, in one transaction.
 */
export function accountModule(
  deps: Omit<AccountDeps, "checkPassword"> & {
    auth: Auth;
    limiter: RequestLimiter;
  },
) {
  const { auth, limiter, ...services } = deps;
  const service = createAccountService({ ...services, checkPassword: createPasswordCheck(auth) });
  return {
    service,
    ...defineModule({
      name: "account",
      path: "/account",
      bodyLimit: JSON_BODY_LIMIT,
      routes: accountRoutes(service, auth, limiter),
    }),
  };
}

export type AccountModule = ReturnType<typeof accountModule>;
