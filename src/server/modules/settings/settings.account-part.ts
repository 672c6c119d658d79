import type { AccountPart, ExportReading } from "#server/modules/module";
import type { Settings as ExportedSettings, Settings } from "./settings.contract";
import type { SettingsService } from "./settings.service";

/** The settings as their API answers them, field by field in the export's order. */
function exportedSettings(current: Settings): ExportedSettings {
  return {
    theme: current.theme,
    emailNotifications: current.emailNotifications,
    twoFactorEnabled: current.twoFactorEnabled,
    dailyGoalUnit: current.dailyGoalUnit,
    dailyGoal: current.dailyGoal,
    timeZone: current.timeZone,
    reminderHour: current.reminderHour,
    newCardsPerDay: current.newCardsPerDay,
  };
}

/** The settings' part of Export My Data: the settings, and the days the daily goal changed. */
export function settingsAccountPart(settings: SettingsService): AccountPart {
  const read = (reading: ExportReading) => reading.once("settings", () => settings.exportFor(reading.userId));
  return {
    export: {
      settings: async (reading) => exportedSettings((await read(reading)).settings),
      dailyGoalChanges: async (reading) => (await read(reading)).dailyGoalChanges,
    },
  };
}
