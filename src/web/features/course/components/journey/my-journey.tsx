import type { ReactNode } from "react";
import type { Chapter, Day } from "../../../../../course/course";
import type { ProgressMap, Viewer } from "../../../../../course/progress-rules";
import { COURSE } from "../../course-data";
import { JourneyDay } from "./journey-day";
import { VocabularyProgress } from "./vocabulary-progress";

/**
 * My Journey: every chapter in course order with its vocabulary learned and each day's status and
 * tasks. `renderTutorFeedback` is where a day's feedback from the learner's tutor goes.
 */
export function MyJourney({
  progress,
  viewer,
  renderTutorFeedback,
}: {
  progress: ProgressMap;
  viewer: Viewer;
  renderTutorFeedback?: (chapter: Chapter, day: Day) => ReactNode;
}) {
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
            <VocabularyProgress chapter={chapter} progress={progress} />
            <ol aria-label={`Days of Chapter ${chapter.number}`} className="space-y-3">
              {chapter.days.map((day) => (
                <JourneyDay
                  key={day.id}
                  chapter={chapter}
                  day={day}
                  progress={progress}
                  viewer={viewer}
                  tutorFeedback={renderTutorFeedback?.(chapter, day)}
                />
              ))}
            </ol>
          </section>
        );
      })}
    </div>
  );
}
