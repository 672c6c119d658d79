import { loadDayContent } from "virtual:jalan-course-days";
import chapters from "virtual:jalan-course-outline";
import { courseOutline } from "#course/course";

/**
 * The course's chapters and days as the content files describe them (validated at build time,
 * scripts/vite-course-content.ts), without the days' pages: see lib/course-outline.ts.
 */
export const COURSE = chapters;

/** Every day in course order, as the progress rules see it. */
export const OUTLINE = courseOutline(chapters);

export function outlineDay(chapterId: string, dayId: string) {
  return OUTLINE.find((day) => day.chapterId === chapterId && day.dayId === dayId);
}

/**
 * One day of the course whole (its story, Codebook and live session), or undefined for ids the course
 * does not have. Each day is a module of its own, loaded by the pages of that day (their route's
 * loader), so a page carries only its own day.
 */
export const loadDay = (chapterId: string, dayId: string) => loadDayContent(chapterId, dayId);

/** Every day's vocabulary, for My Journey: a module of its own, loaded by its route. */
export const loadVocabulary = async () => (await import("virtual:jalan-course-vocabulary")).default;

let taught: Promise<ReadonlySet<string>> | undefined;
/**
 * Every word the course teaches, for grading in the browser as the server does (a slip that makes
 * another taught word is wrong): a module of its own, loaded on a visitor's first answer.
 */
export const loadTaughtWords = () => {
  taught ??= import("virtual:jalan-taught-words").then((module) => new Set(module.default));
  return taught;
};
