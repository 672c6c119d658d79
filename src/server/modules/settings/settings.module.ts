import type { Database } from "#server/db/client";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { ReviewModule } from "#server/modules/review/review.module";
import { settingsRoutes } from "./settings.routes";
import { createSettingsService } from "./settings.service";

/** The signed-in user's settings: /api/settings. A daily goal's change is kept by review. */
export function settingsModule(deps: { db: Database; review: ReviewModule["service"] }) {
  const service = createSettingsService(deps.db, deps.review);
  return {
    service,
    ...defineModule({
      name: "settings",
      path: "/settings",
      bodyLimit: JSON_BODY_LIMIT,
      routes: settingsRoutes(service),
    }),
  };
}

export type SettingsModule = ReturnType<typeof settingsModule>;
