import { memo, type ReactNode } from "react";
import type { CompletedDays, ProgressMap, Viewer } from "#course/progress-rules";
import { COURSE } from "#web/lib/course-data";
import type { ChapterSummary, CourseVocabulary, DaySummary } from "#web/lib/course-outline";
import { JourneyDay } from "./journey-day";
import { VocabularyProgress } from "./vocabulary-progress";

/** What My Journey says about itself: the page's title and intro, and its prerendered HTML's head. */
export const journeyMeta = {
  title: "My Journey",
  description: "Your progress through the chapters of the story.",
};

/**
 * My Journey: every chapter in course order with its vocabulary learned and each day's status and
 * tasks. `vocabulary` is every day's words (its route loads them with the page, lib/course-data.ts);
 * `renderTutorFeedback` is where a day's feedback from the learner's tutor goes.
 *
 * With `learner` null (still loading) it shows the same layout with placeholders where statuses and
 * counts go: the chapters, days and tasks come from the course, so the page has its real size before
 * the progress arrives, and nothing moves when it does. Memoized: it draws again only when the
 * learner or their progress changes, not with every answer the page waits for.
 */
export const MyJourney = memo(function MyJourney({
  learner,
  vocabulary,
  renderTutorFeedback,
}: {
  learner: (Viewer & { progress: ProgressMap; completedDays?: CompletedDays }) | null;
  vocabulary: CourseVocabulary;
  renderTutorFeedback?: (chapter: ChapterSummary, day: DaySummary) => ReactNode;
}) {
  const progress = learner?.progress ?? null;
  const completedDays = learner?.completedDays;
  const viewer: Viewer = learner ?? { signedIn: false };
  return (
    <div className="space-y-10">
      {COURSE.map((chapter) => {
        const headingId = `journey-${chapter.id}`;
        return (
          <section key={chapter.id} aria-labelledby={headingId} className="space-y-5">
            <header className="space-y-1">
              <h2 id={headingId} className="text-2xl font-semibold tracking-tight">
                Chapter {chapter.number}: {chapter.title}
              </h2>
              <p className="text-muted-foreground">{chapter.description}</p>
            </header>
            <VocabularyProgress chapter={chapter} vocabulary={vocabulary} progress={progress} />
            <ol aria-label={`Days of Chapter ${chapter.number}`} className="space-y-3">
              {chapter.days.map((day) => (
                <JourneyDay
                  key={day.id}
                  chapter={chapter}
                  day={day}
                  progress={progress}
                  completedDays={completedDays}
                  viewer={viewer}
                  tutorFeedback={progress && renderTutorFeedback?.(chapter, day)}
                />
              ))}
            </ol>
          </section>
        );
      })}
    </div>
  );
});
