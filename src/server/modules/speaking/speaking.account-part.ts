import type { AccountPart, ExportReading } from "#server/modules/module";
import type { SpeakingService } from "./speaking.service";
import type { TakeFiles } from "./take-files";

/**
 * The speaking module's part of Export My Data: the takes one at a time, each with its audio, then
 * what the learner sent, their marks on lines, the notices they were given and their quiet days.
 * Their rows go with the account's (foreign keys); the takes' files with their rows in PostgreSQL,
 * and from a bucket once the deletion has committed.
 */
export function speakingAccountPart(speaking: SpeakingService, files: TakeFiles): AccountPart {
  const read = (reading: ExportReading) => reading.once("speaking", () => speaking.exportFor(reading.userId));
  return {
    export: {
      recordings: ({ userId }) => speaking.exportTakesOf(userId),
      speakingSubmissions: async (reading) => (await read(reading)).speakingSubmissions,
      linePractice: async (reading) => (await read(reading)).linePractice,
      notices: async (reading) => (await read(reading)).notices,
      quietDays: async (reading) => (await read(reading)).quietDays,
    },
    async close(userId) {
      return { afterCommit: () => files.removeAllOf(userId) };
    },
  };
}
