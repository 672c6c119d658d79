import { findDay } from "#course/course";
import { isDayUnlocked } from "#course/progress-rules";
import { coursePaths, paths } from "#web/config/paths";
import { COURSE, OUTLINE } from "#web/lib/course-data";
import type { PrerenderedPage } from "#web/lib/page-head";
import { chapterPageTitle } from "./components/chapter/chapter-overview";
import { dayPageTitle } from "./components/course-day-frame";
import { journeyMeta } from "./components/journey/my-journey";

/**
 * The course pages the build prerenders, as they look before the session is read: My Journey's
 * layout with placeholders for the progress, each chapter as a visitor sees it, and the story and
 * Codebook of each day a visitor may open. Every one needs the app soon (progress, audio), so it starts after
 * paint. Days a visitor may not open are left to the app: until the session is read they could only
 * say "Loading…".
 */
export const coursePagesToPrerender: PrerenderedPage[] = [
  { path: paths.progress, meta: journeyMeta, appStart: "after-paint" },
  ...COURSE.map(
    (chapter): PrerenderedPage => ({
      path: coursePaths.chapter(chapter.id),
      meta: { title: chapterPageTitle(chapter), description: chapter.description },
      appStart: "after-paint",
    }),
  ),
  ...OUTLINE.filter((day) => isDayUnlocked(OUTLINE, {}, day, { signedIn: false })).flatMap((outlineDay) => {
    const { day } = findDay(COURSE, outlineDay.chapterId, outlineDay.dayId)!;
    return [
      {
        path: coursePaths.day(outlineDay.chapterId, outlineDay.dayId),
        meta: { title: dayPageTitle(day, "story"), description: day.goal },
        appStart: "after-paint",
      },
      {
        path: coursePaths.codebook(outlineDay.chapterId, outlineDay.dayId),
        meta: { title: dayPageTitle(day, "codebook"), description: day.goal },
        appStart: "after-paint",
      },
    ] satisfies PrerenderedPage[];
  }),
];
