import type { FileStorage } from "#server/storage/storage";
import type { Take } from "./speaking.contract";
import type { SpeakingRepository, TakeRow } from "./speaking.repository";

/**
 * The speaking module's part of Export My Data. The takes come one at a time (exportTakesOf), each
 * with its audio as a data: URL, so the export can write each before reading the next: all of a
 * learner's audio is never in memory at once.
 */
export function speakingExport(takes: SpeakingRepository, storage: FileStorage, takeOf: (row: TakeRow) => Take) {
  return {
    /** What the learner sent, their marks on lines, their quiet days and the notices they were given. */
    async exportFor(userId: string) {
      const [submissions, lines, quietDays, notices] = await Promise.all([
        takes.allSubmissionsOf(userId),
        takes.allLinesOf(userId),
        takes.allQuietDaysOf(userId),
        takes.allNoticesOf(userId),
      ]);
      return {
        speakingSubmissions: submissions.map(({ userId: _user, reviewedBy: _tutor, ...submission }) => submission),
        linePractice: lines.map(({ userId: _user, ...line }) => line),
        quietDays,
        notices,
      };
    },

    /** Every take of the learner, oldest first, its audio read as it is reached (null if its file could not be). */
    async *exportTakesOf(userId: string) {
      for (const row of await takes.allTakesOf(userId)) {
        const bytes = await storage.read(row.fileKey);
        const { audio: _path, ...take } = takeOf(row);
        yield { ...take, audio: bytes ? `data:${row.contentType};base64,${bytes.toString("base64")}` : null };
      }
    },
  };
}
