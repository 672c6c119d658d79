import type { Database } from "#server/db/client";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { settingsAccountPart } from "./settings.account-part";
import { settingsRoutes } from "./settings.routes";
import { createSettingsService } from "./settings.service";

/**
 * The signed-in user's settings: /api/settings. Its service keeps the days a daily goal changed and
 * answers review (goal and zone) and reminders (who wants them, unsubscribing).
 */
export function settingsModule(deps: { db: Database; now?: () => Date }) {
  const service = createSettingsService(deps.db, deps.now);
  return {
    service,
    ...defineModule({
      name: "settings",
      path: "/settings",
      bodyLimit: JSON_BODY_LIMIT,
      routes: settingsRoutes(service),
      account: settingsAccountPart(service),
    }),
  };
}

export type SettingsModule = ReturnType<typeof settingsModule>;
