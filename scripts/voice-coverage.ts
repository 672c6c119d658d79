// How many of each day's spoken lines have a native voice published in the studio (decision 078),
// read from the database at DATABASE_URL: the lines of `npm run content:check` that follow the
// course's own. Without DATABASE_URL (CI, a checkout without a running app) it says where to read it.

import type { Chapter } from "#course/course";
import { connectDatabase } from "#server/db/client";
import { createLogger } from "#server/logger";
import { createStudioRepository } from "#server/modules/studio/studio.repository";
import { coverage } from "#server/modules/studio/studio.service";

/** One line per day ("chapter-1 day-1: 12 of 40 lines in a native voice, 3 in review"), then the course's total. */
export async function voiceCoverageLines(
  course: readonly Chapter[],
  databaseUrl: string | undefined,
): Promise<string[]> {
  if (!databaseUrl) {
    return ["Native voices: not read (set DATABASE_URL to the app's database to count each day's published lines)"];
  }
  const database = connectDatabase(databaseUrl, createLogger("warn"), { max: 1 });
  try {
    const days = coverage(course, await createStudioRepository(database.db).dayCounts());
    const lines = days.map(
      (day) =>
        `${day.chapterId} ${day.dayId}: ${day.published} of ${day.lines} lines in a native voice` +
        (day.inReview > 0 ? `, ${day.inReview} in review` : ""),
    );
    const published = days.reduce((sum, day) => sum + day.published, 0);
    const total = days.reduce((sum, day) => sum + day.lines, 0);
    return [
      ...lines,
      `Native voices: ${published} of ${total} spoken lines (${Math.round((100 * published) / Math.max(total, 1))}%)`,
    ];
  } finally {
    await database.close();
  }
}
