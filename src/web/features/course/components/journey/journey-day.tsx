import type { ReactNode } from "react";
import { Link } from "react-router";
import { type CompletedDays, type ProgressMap, taskStatus, type Viewer } from "#course/progress-rules";
import { StatusIcon, StatusPlaceholder } from "#web/components/status-icon";
import { coursePaths } from "#web/config/paths";
import { dayView } from "#web/features/course/components/chapter/day-display-status";
import { cn } from "#web/lib/cn";
import type { ChapterSummary, DaySummary } from "#web/lib/course-outline";

/**
 * One day on My Journey: its status, a link when it is open, and each task with its status. While
 * the progress loads (`progress` null) the statuses are placeholders and the day is not a link yet.
 */
export function JourneyDay({
  chapter,
  day,
  progress,
  completedDays,
  viewer,
  tutorFeedback,
}: {
  chapter: ChapterSummary;
  day: DaySummary;
  progress: ProgressMap | null;
  /** The days the learner completed once: they keep the days after them open (decision 030). */
  completedDays?: CompletedDays;
  viewer: Viewer;
  /** Feedback from the learner's tutor on this day, shown under its tasks. */
  tutorFeedback?: ReactNode;
}) {
  const view = progress && dayView(progress, viewer, chapter.id, day.id, completedDays);
  const name = `Day ${day.number} — ${day.subtopic}`;
  return (
    <li className={cn("rounded-lg border p-4", !view || view.unlocked ? "bg-card" : "bg-muted/50")}>
      <div className="flex items-start gap-3">
        {view ? <StatusIcon status={view.status} className="mt-0.5" /> : <StatusPlaceholder className="mt-0.5" />}
        <h3 className="text-lg font-semibold leading-snug">
          {view?.unlocked ? (
            <Link
              to={coursePaths.day(chapter.id, day.id)}
              className="text-primary underline underline-offset-4 hover:text-primary-hover"
            >
              {name}
            </Link>
          ) : (
            <span className={cn(view && "text-muted-foreground")}>{name}</span>
          )}
        </h3>
      </div>
      {day.tasks.length > 0 && (
        <ul aria-label={`Day ${day.number} tasks`} className="mt-3 space-y-1.5 pl-8">
          {day.tasks.map((task) => (
            <li key={task.id} className="flex items-center gap-2">
              {progress ? (
                <StatusIcon status={taskStatus(progress, chapter.id, day.id, task.id)} />
              ) : (
                <StatusPlaceholder />
              )}
              <span>{task.label}</span>
            </li>
          ))}
        </ul>
      )}
      {tutorFeedback}
    </li>
  );
}
