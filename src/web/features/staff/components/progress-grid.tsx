import type { KeyboardEvent, SyntheticEvent } from "react";
import { type DayStatus, dayStatus, type ProgressMap, taskStatus } from "#course/progress-rules";
import { TASK_STATUSES, type TaskStatus } from "#course/progress-status";
import { type DisplayStatus, StatusIcon } from "#web/components/status-icon";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "#web/components/ui/select";
import { useSetUserTaskStatus } from "#web/features/staff/api/staff";
import { cn } from "#web/lib/cn";
import { COURSE, outlineDay } from "#web/lib/course-data";
import type { ChapterSummary, DaySummary } from "#web/lib/course-outline";

/**
 * A user's progress as staff see it: every day of the course, in course order, each task
 * with a status they can set. Day locking does not apply here (spec section 6).
 */
export function ProgressGrid({ userId, progress }: { userId: string; progress: ProgressMap }) {
  return (
    <div className="grid gap-10">
      {COURSE.map((chapter) => {
        return (
          <section key={chapter.id} aria-labelledby={`progress-${chapter.id}`} className="grid gap-4">
            <h3 id={`progress-${chapter.id}`} className="text-lg font-semibold">
              Chapter {chapter.number}: {chapter.title}
            </h3>
            <div className="grid gap-4 lg:grid-cols-2">
              {chapter.days.map((day) => (
                <DayProgress key={day.id} userId={userId} chapter={chapter} day={day} progress={progress} />
              ))}
            </div>
          </section>
        );
      })}
    </div>
  );
}

/** Staff see every day open, so a day with no records reads "Not started" rather than "Locked". */
function dayDisplayStatus(status: DayStatus): DisplayStatus {
  return status === "locked" ? "not-started" : status;
}

function DayProgress({
  userId,
  chapter,
  day,
  progress,
}: {
  userId: string;
  chapter: ChapterSummary;
  day: DaySummary;
  progress: ProgressMap;
}) {
  const outline = outlineDay(chapter.id, day.id);
  const status = dayDisplayStatus(outline ? dayStatus(progress, outline) : "locked");
  const headingId = `progress-${chapter.id}-${day.id}`;
  return (
    <article aria-labelledby={headingId} className="rounded-lg border bg-card p-4 text-card-foreground">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h4 id={headingId} className="font-semibold">
          Day {day.number}: {day.subtopic}
        </h4>
        <p className="text-sm">
          <span className="sr-only">Day status: </span>
          <StatusIcon status={status} showLabel />
        </p>
      </div>
      {day.tasks.length === 0 ? (
        <p className="mt-3 text-sm text-muted-foreground">This day has no tasks yet.</p>
      ) : (
        <table className="mt-3 w-full text-sm">
          <caption className="sr-only">Tasks of Day {day.number}</caption>
          <thead className="sr-only">
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {day.tasks.map((task) => (
              <tr key={task.id} className="border-t first:border-t-0">
                <th scope="row" className="py-2 pr-3 text-left font-normal">
                  {task.label}
                </th>
                <td className="w-40 py-2 sm:w-44">
                  <TaskStatusSelect
                    userId={userId}
                    chapterId={chapter.id}
                    dayId={day.id}
                    taskId={task.id}
                    label={`Status of ${task.label}, Day ${day.number}`}
                    status={taskStatus(progress, chapter.id, day.id, task.id)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}

/**
 * A task's status, set on change. While the change is saving the select shows the new value and
 * refuses input (aria-disabled rather than disabled, so keyboard focus stays where it was); on
 * failure it shows the stored value again.
 */
function TaskStatusSelect({
  userId,
  chapterId,
  dayId,
  taskId,
  label,
  status,
}: {
  userId: string;
  chapterId: string;
  dayId: string;
  taskId: string;
  label: string;
  status: TaskStatus;
}) {
  const update = useSetUserTaskStatus();
  const saving = update.isPending;
  const shown = saving ? update.variables.status : status;

  // Radix skips its own handlers for an event whose default was prevented: this keeps the list shut.
  const refuseWhileSaving = (event: SyntheticEvent) => {
    if (saving && (event as KeyboardEvent).key !== "Tab") event.preventDefault();
  };

  return (
    <Select
      value={shown}
      onValueChange={(value) => {
        if (saving || value === status) return;
        update.mutate({ userId, chapterId, dayId, taskId, status: value as TaskStatus });
      }}
    >
      <SelectTrigger
        aria-label={label}
        aria-disabled={saving || undefined}
        aria-busy={saving || undefined}
        className={cn("h-9", saving && "cursor-progress opacity-60")}
        onPointerDown={refuseWhileSaving}
        onClick={refuseWhileSaving}
        onKeyDown={refuseWhileSaving}
      >
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {TASK_STATUSES.map((option) => (
          <SelectItem key={option} value={option}>
            <StatusIcon status={option} showLabel labelClassName="text-popover-foreground" />
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
