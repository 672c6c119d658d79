import type { Database } from "#server/db/client";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { FileStorage } from "#server/storage/storage";
import { orphanAvatarsJob } from "./avatar-sweep";
import { profileAccountPart } from "./profile.account-part";
import { profileRoutes } from "./profile.routes";
import { createProfileService } from "./profile.service";

/**
 * The signed-in user's name and avatar: /api/profile. The avatar upload sets its own limit (1 MB);
 * a job sweeps avatar files no account holds.
 */
export function profileModule(deps: { db: Database; storage: FileStorage; now?: () => Date }) {
  const service = createProfileService(deps.db, deps.storage);
  return {
    service,
    ...defineModule({
      name: "profile",
      path: "/profile",
      bodyLimit: JSON_BODY_LIMIT,
      ownBodyLimit: ["/avatar"],
      routes: profileRoutes(service),
      account: profileAccountPart(service),
      jobs: [orphanAvatarsJob(deps.storage, deps.db, deps.now)],
    }),
  };
}

export type ProfileModule = ReturnType<typeof profileModule>;
