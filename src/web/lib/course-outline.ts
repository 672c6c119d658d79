import type { Chapter, Day } from "#course/course";

/**
 * The course as every page may need it without any day's pages: chapters and days with their titles,
 * goals and tasks. It ships with the app (`virtual:jalan-course-outline`, scripts/vite-course-content.ts);
 * a day's stories, Codebook and live session load with that day's pages (lib/course-data.ts).
 */
export type DaySummary = Pick<Day, "id" | "number" | "subtopic" | "goal" | "requiresSignIn" | "tasks">;
export type ChapterSummary = Omit<Chapter, "days"> & { days: DaySummary[] };

/** A word of a day's vocabulary as My Journey lists it once learned. */
export type VocabularyWord = Pick<Day["vocabulary"][number], "id" | "malay" | "english">;
/** Every day's vocabulary, by chapter id, then day id. */
export type CourseVocabulary = Record<string, Record<string, VocabularyWord[]>>;

export function courseSummary(chapters: readonly Chapter[]): ChapterSummary[] {
  return chapters.map(({ days, ...chapter }) => ({
    ...chapter,
    days: days.map(({ id, number, subtopic, goal, requiresSignIn, tasks }) => ({
      id,
      number,
      subtopic,
      goal,
      requiresSignIn,
      tasks,
    })),
  }));
}

export function courseVocabulary(chapters: readonly Chapter[]): CourseVocabulary {
  return Object.fromEntries(
    chapters.map((chapter) => [
      chapter.id,
      Object.fromEntries(
        chapter.days.map((day) => [day.id, day.vocabulary.map(({ id, malay, english }) => ({ id, malay, english }))]),
      ),
    ]),
  );
}
