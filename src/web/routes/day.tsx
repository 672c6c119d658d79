import { lazy, Suspense } from "react";
import { CourseDayFrame } from "#web/features/course/components/course-day-frame";
import { StoryPage } from "#web/features/course/components/story/story-page";
import type { ChapterSummary } from "#web/lib/course-outline";

/** The day's content, for the page and its prerendered HTML (use-course-day.ts). */
export { courseDayLoader as loader } from "#web/features/course/use-course-day";

/** Review's code loads only for a signed-in learner on a review day. */
const HardestPhrasesWarmUp = lazy(() =>
  import("#web/features/review/components/hardest-phrases-warm-up").then((module) => ({
    default: module.HardestPhrasesWarmUp,
  })),
);

/** A review day's quiz starts with the chapter's phrases the learner found hardest. */
const renderQuizWarmUp = (chapter: ChapterSummary) => (
  <Suspense fallback={null}>
    <HardestPhrasesWarmUp chapterId={chapter.id} />
  </Suspense>
);

export function Component() {
  return (
    <CourseDayFrame part="story" asVisitorWhilePending>
      {(open) => (
        <StoryPage key={`${open.chapter.id}/${open.day.id}`} open={open} renderQuizWarmUp={renderQuizWarmUp} />
      )}
    </CourseDayFrame>
  );
}
