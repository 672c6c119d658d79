import { lazy, Suspense } from "react";
import type { Chapter } from "#course/course";
import { CourseDayFrame } from "#web/features/course/components/course-day-frame";
import { StoryPage } from "#web/features/course/components/story/story-page";

/** Review's code loads only for a signed-in learner on a review day. */
const HardestPhrasesWarmUp = lazy(() =>
  import("#web/features/review/components/hardest-phrases-warm-up").then((module) => ({
    default: module.HardestPhrasesWarmUp,
  })),
);

/** A review day's quiz starts with the chapter's phrases the learner found hardest. */
const renderQuizWarmUp = (chapter: Chapter) => (
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
