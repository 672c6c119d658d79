/** The course's chapters and days without the days' pages (scripts/vite-course-content.ts). */
declare module "virtual:jalan-course-outline" {
  const chapters: import("#web/lib/course-outline").ChapterSummary[];
  export default chapters;
}

/** Loads one day of the course whole, its own module; undefined for ids the course does not have. */
declare module "virtual:jalan-course-days" {
  export function loadDayContent(chapterId: string, dayId: string): Promise<import("#course/course").Day | undefined>;
}

/** Every day's vocabulary, by chapter and day, for My Journey. */
declare module "virtual:jalan-course-vocabulary" {
  const vocabulary: import("#web/lib/course-outline").CourseVocabulary;
  export default vocabulary;
}

/** A short content hash per folder under public/media, keyed by its URL path (scripts/vite-course-content.ts). */
declare module "virtual:jalan-media-versions" {
  const versions: Record<string, string>;
  export default versions;
}

/** Every word the course teaches (taughtWords), for grading a visitor's practice in the browser. */
declare module "virtual:jalan-taught-words" {
  const words: string[];
  export default words;
}
