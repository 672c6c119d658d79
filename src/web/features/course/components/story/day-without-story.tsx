import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { dayAfter } from "../../../../../course/course";
import { Button } from "../../../../components/ui/button";
import { coursePaths, paths } from "../../../../config/paths";
import { COURSE } from "../../course-data";
import type { OpenDay } from "../course-day-frame";
import { UnderConstruction } from "../under-construction";
import { CompleteTaskButton } from "./complete-task-button";

/** Review days record their one task from their own page (docs/decisions/012-culture-corner-completes-day-5.md). */
const REVIEW_TASK_PREFIX = "review:";

/**
 * A day whose story is not written yet. A review day (day 5, the Culture Corner) leads on to the
 * next chapter and can be marked complete, so the days after it can open. Any other day leads to
 * its Codebook, or back to My Journey when it is the last day of the course.
 */
export function DayWithoutStory({ open }: { open: OpenDay }) {
  const { chapter, day } = open;
  const reviewTask = day.tasks.find((task) => task.id.startsWith(REVIEW_TASK_PREFIX));
  if (reviewTask) {
    const next = dayAfter(COURSE, chapter.id, day.id);
    const nextChapter = next && next.chapter.id !== chapter.id ? next.chapter : null;
    return (
      <UnderConstruction title={day.subtopic}>
        <p>
          The {day.subtopic} will bring the week together. Until it is ready, mark Day {day.number} as complete to open
          the next days.
        </p>
        <div className="flex flex-wrap gap-3">
          <CompleteTaskButton open={open} taskId={reviewTask.id} label="Mark as Complete" />
          {nextChapter ? (
            <Button asChild variant="outline">
              <Link to={coursePaths.chapter(nextChapter.id)}>
                Go to Chapter {nextChapter.number}
                <ArrowRight aria-hidden />
              </Link>
            </Button>
          ) : (
            <BackToJourney />
          )}
        </div>
      </UnderConstruction>
    );
  }
  const hasNextDay = Boolean(dayAfter(COURSE, chapter.id, day.id));
  return (
    <UnderConstruction title={`Day ${day.number} story`}>
      {hasNextDay ? (
        <Button asChild>
          <Link to={coursePaths.codebook(chapter.id, day.id)}>
            Go to Day {day.number} Codebook
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      ) : (
        <BackToJourney />
      )}
    </UnderConstruction>
  );
}

function BackToJourney() {
  return (
    <Button asChild>
      <Link to={paths.progress}>Back to My Journey</Link>
    </Button>
  );
}
