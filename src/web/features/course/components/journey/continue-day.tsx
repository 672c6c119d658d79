import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import {
  type CompletedDays,
  isDayFinished,
  isDayUnlocked,
  type ProgressMap,
  type Viewer,
} from "#course/progress-rules";
import { Button } from "#web/components/ui/button";
import { coursePaths } from "#web/config/paths";
import { COURSE, OUTLINE } from "#web/lib/course-data";

/** The first day the learner has not finished, if it is open to them: where to carry on. */
export function dayToContinue(progress: ProgressMap, viewer: Viewer, completedDays?: CompletedDays) {
  const next = OUTLINE.find((day) => !isDayFinished(progress, day, completedDays));
  if (!next || !isDayUnlocked(OUTLINE, progress, next, viewer, completedDays)) return null;
  const chapter = COURSE.find((each) => each.id === next.chapterId)!;
  const day = chapter.days.find((each) => each.id === next.dayId)!;
  const started = Object.keys(progress[next.chapterId]?.[next.dayId] ?? {}).length > 0 || next.number > 1;
  return { chapter, day, started };
}

/**
 * My Journey's first line: one link on to the day to do next ("Continue: Day 2"), above the review
 * panel, so a phone shows it without scrolling. Its place is kept while the progress loads, so the
 * page does not move when it arrives.
 */
export function ContinueDay({
  learner,
}: {
  learner: (Viewer & { progress: ProgressMap; completedDays?: CompletedDays }) | null;
}) {
  const next = learner && dayToContinue(learner.progress, learner, learner.completedDays);
  return (
    <div className="min-h-10">
      {next && (
        <Button asChild size="lg" className="h-auto min-h-10 w-full justify-between whitespace-normal sm:w-auto">
          <Link to={coursePaths.day(next.chapter.id, next.day.id)}>
            <span>
              <span>{`${next.started ? "Continue" : "Start"}: Day ${next.day.number}`}</span>{" "}
              <span className="font-normal">— {next.day.subtopic}</span>
            </span>
            <ArrowRight aria-hidden />
          </Link>
        </Button>
      )}
    </div>
  );
}
