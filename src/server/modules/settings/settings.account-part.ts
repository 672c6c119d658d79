import type { AccountPart, ExportReading } from "#server/modules/module";
import type { SettingsService } from "./settings.service";

/** The settings' part of Export My Data: the settings as their API answers them, and the daily goal's changes. */
export function settingsAccountPart(settings: SettingsService): AccountPart {
  const read = (reading: ExportReading) => reading.once("settings", () => settings.exportFor(reading.userId));
  return {
    export: {
      settings: async (reading) => (await read(reading)).settings,
      dailyGoalChanges: async (reading) => (await read(reading)).dailyGoalChanges,
    },
  };
}
