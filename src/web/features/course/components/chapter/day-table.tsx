import { Lock } from "lucide-react";
import { Link } from "react-router";
import type { CompletedDays, ProgressMap, Viewer } from "#course/progress-rules";
import { StatusIcon } from "#web/components/status-icon";
import { coursePaths } from "#web/config/paths";
import { cn } from "#web/lib/cn";
import type { ChapterSummary } from "#web/lib/course-outline";
import { dayView } from "./day-display-status";

/**
 * A chapter's days: number, subtopic (the day's mission), learning goal and status. A day the
 * viewer may open links to it; a locked day shows a lock and is not a link.
 */
export function DayTable({
  chapter,
  progress,
  completedDays,
  viewer,
}: {
  chapter: ChapterSummary;
  progress: ProgressMap;
  completedDays?: CompletedDays;
  viewer: Viewer;
}) {
  return (
    <table className="w-full border-collapse text-left text-sm sm:text-base">
      <caption className="sr-only">Days of Chapter {chapter.number}</caption>
      <thead>
        <tr className="border-b text-muted-foreground">
          <th scope="col" className="py-2 pr-3 font-medium">
            Day
          </th>
          <th scope="col" className="py-2 pr-3 font-medium">
            Subtopic / Mission
          </th>
          <th scope="col" className="py-2 pr-3 font-medium">
            Learning Goal
          </th>
          <th scope="col" className="py-2 font-medium">
            Status
          </th>
        </tr>
      </thead>
      <tbody>
        {chapter.days.map((day) => {
          const view = dayView(progress, viewer, chapter.id, day.id, completedDays);
          return (
            <tr
              key={day.id}
              className={cn("relative border-b align-top last:border-b-0", view.unlocked && "hover:bg-muted")}
            >
              <th scope="row" className="whitespace-nowrap py-3 pr-3 font-medium">
                {view.unlocked ? (
                  <Link
                    to={coursePaths.day(chapter.id, day.id)}
                    // The link covers its row, so the whole row opens the day.
                    className="inline-flex min-h-11 items-center text-primary underline underline-offset-4 after:absolute after:inset-0 hover:text-primary-hover"
                  >
                    Day {day.number}
                  </Link>
                ) : (
                  <span className="inline-flex min-h-11 items-center gap-1.5 text-muted-foreground">
                    <Lock aria-hidden className="size-4" />
                    Day {day.number}
                  </span>
                )}
              </th>
              <td className="py-3 pr-3">
                <span className="inline-flex min-h-11 items-center">{day.subtopic}</span>
              </td>
              <td className="py-3 pr-3 text-muted-foreground">
                <span className="inline-flex min-h-11 items-center">{day.goal}</span>
              </td>
              <td className="py-3">
                <StatusIcon
                  status={view.status}
                  className="min-h-11"
                  labelClassName="sr-only text-sm text-muted-foreground sm:not-sr-only"
                />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
