import type { Chapter } from "#course/course";
import type { TestApp } from "#tests/test-app";
import type { Segment } from "./arbitraries";

/** chapter id → day id → task id → status, as GET /api/progress answers it. */
export type Progress = Record<string, Record<string, Record<string, string>>>;

/** A user's stored progress; tasks without a row are not-started and left out. */
export async function progressOf(t: TestApp, userId: string): Promise<Progress> {
  const { rows } = await t.pool.query<{ chapterId: string; dayId: string; taskId: string; status: string }>(
    `select chapter_id as "chapterId", section_id as "dayId", task_id as "taskId", status
       from task_progress where user_id = $1 and status <> 'not-started'`,
    [userId],
  );
  const progress: Progress = {};
  for (const { chapterId, dayId, taskId, status } of rows) {
    progress[chapterId] ??= {};
    progress[chapterId][dayId] ??= {};
    progress[chapterId][dayId][taskId] = status;
  }
  return progress;
}

/** The days a user has completed once (table day_completion), as "chapter/day", sorted. */
export async function completedDaysOf(t: TestApp, userId: string): Promise<string[]> {
  const { rows } = await t.pool.query<{ key: string }>(
    `select chapter_id || '/' || day_id as key from day_completion where user_id = $1 order by 1`,
    [userId],
  );
  return rows.map((row) => row.key);
}

/** Completed days as the API answers them ({ chapterId, dayId }), as the oracle's "chapter/day" keys, sorted. */
export function dayKeys(days: ReadonlyArray<{ chapterId: string; dayId: string }>): string[] {
  return days.map((day) => `${day.chapterId}/${day.dayId}`).sort();
}

type CourseDay = { chapterId: string; day: Chapter["days"][number] };

function courseDays(course: readonly Chapter[]): CourseDay[] {
  return course.flatMap((chapter) => chapter.days.map((day) => ({ chapterId: chapter.id, day })));
}

/** Every task of the day is completed in `progress` (a day without tasks has nothing to complete). */
function allTasksCompleted(progress: Progress, { chapterId, day }: CourseDay): boolean {
  return day.tasks.length > 0 && day.tasks.every((task) => progress[chapterId]?.[day.id]?.[task.id] === "completed");
}

/**
 * Whether the course has this task and the caller may record it, by the course's rules: an unknown
 * chapter, day or task is a 400. For a learner, a day without content is a 409, and so is a day
 * before which some day of the course (across chapters) is not finished: it has a task not completed
 * and the learner never completed it (no completion among `completed`, decision 030). Staff may
 * record any task of any day. "unknown" for raw junk ids: a 4xx, without a rule to say which.
 */
export function verdictFor(
  course: readonly Chapter[],
  ids: readonly Segment[],
  progress: Progress,
  caller: { staff: boolean },
  completed: readonly string[] = [],
): "open" | "unknown" | 400 | 409 {
  const [chapterId, dayId, taskId] = ids.map((id) => id.value);
  if (chapterId === null || dayId === null || taskId === null) return "unknown";
  const chapter = course.find((candidate) => candidate.id === chapterId);
  const day = chapter?.days.find((candidate) => candidate.id === dayId);
  if (!chapter || !day) return 400;
  if (!day.tasks.some((task) => task.id === taskId)) return 400;
  if (caller.staff) return "open";
  const days = courseDays(course);
  const index = days.findIndex((entry) => entry.chapterId === chapterId && entry.day.id === dayId);
  const locked = days
    .slice(0, index)
    .some(
      ({ chapterId: earlierChapter, day: earlier }) =>
        !completed.includes(`${earlierChapter}/${earlier.id}`) &&
        earlier.tasks.some((task) => progress[earlierChapter]?.[earlier.id]?.[task.id] !== "completed"),
    );
  return locked ? 409 : "open";
}

/**
 * The completed days after a learner's accepted save of `target` (decision 030): those before, the
 * target day when every one of its tasks is now completed, and any earlier day whose tasks were
 * all completed already (a row a concurrent save missed, recorded by the next save after it).
 * Staff recording their own progress are not held by the earlier days, so only their target counts.
 */
export function completedAfterSave(
  course: readonly Chapter[],
  [chapterId, dayId]: readonly [string, string, string],
  before: Progress,
  after: Progress,
  completed: readonly string[],
  caller: { staff: boolean },
): string[] {
  const result = new Set(completed);
  const days = courseDays(course);
  const index = days.findIndex((entry) => entry.chapterId === chapterId && entry.day.id === dayId);
  if (!caller.staff) {
    for (const earlier of days.slice(0, index)) {
      if (allTasksCompleted(before, earlier)) result.add(`${earlier.chapterId}/${earlier.day.id}`);
    }
  }
  if (allTasksCompleted(after, days[index]!)) result.add(`${chapterId}/${dayId}`);
  return [...result].sort();
}

/**
 * The completed days after staff set `target` to `status` (decision 030): completing the day's last
 * task records the day; moving a completed task back (to in-progress or not-started) removes it.
 */
export function completedAfterStaffSet(
  course: readonly Chapter[],
  [chapterId, dayId, taskId]: readonly [string, string, string],
  status: string,
  before: Progress,
  after: Progress,
  completed: readonly string[],
): string[] {
  const result = new Set(completed);
  const key = `${chapterId}/${dayId}`;
  const day = courseDays(course).find((entry) => entry.chapterId === chapterId && entry.day.id === dayId)!;
  if (status !== "completed" && before[chapterId]?.[dayId]?.[taskId] === "completed") result.delete(key);
  if (status === "completed" && allTasksCompleted(after, day)) result.add(key);
  return [...result].sort();
}
