import { type Chapter, courseOutline } from "#course/course";
import {
  completesDay,
  type DayRef,
  daysCompletedBySave,
  isDayUnlocked,
  type ProgressMap,
  reopensDay,
  statusAfterSave,
  taskStatus,
} from "#course/progress-rules";
import type { TaskStatus } from "#course/progress-status";
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

/** "chapter/day" keys, as the oracle keeps completed days, as the course rules take them. */
function dayRefs(keys: readonly string[]): DayRef[] {
  return keys.map((key) => {
    const [chapterId, dayId] = key.split("/") as [string, string];
    return { chapterId, dayId };
  });
}

const keyOf = (day: DayRef) => `${day.chapterId}/${day.dayId}`;

/** The oracle's progress as the course rules read it: the statuses the database holds are TaskStatus. */
const asProgressMap = (progress: Progress) => progress as ProgressMap;

/**
 * Whether the course has this task and the caller may record it, by the course's rules: an unknown
 * chapter, day or task is a 400. For a learner, a day the unlock rule of src/course/progress-rules.ts
 * (isDayUnlocked) keeps closed is a 409: some day before it (across chapters) is not finished, and
 * the learner never completed it (no completion among `completed`, decision 030). Staff may record
 * any task of any day. "unknown" for raw junk ids: a 4xx, without a rule to say which.
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
  const viewer = { signedIn: true, role: caller.staff ? ("Tutor" as const) : ("Student" as const) };
  const open = isDayUnlocked(
    courseOutline(course),
    asProgressMap(progress),
    { chapterId: chapter.id, dayId: day.id },
    viewer,
    dayRefs(completed),
  );
  return open ? "open" : 409;
}

/** The progress after a learner's accepted save of `status`: a completed task stays completed (statusAfterSave). */
export function progressAfterSave(
  before: Progress,
  [chapterId, dayId, taskId]: readonly [string, string, string],
  status: string,
): Progress {
  const after: Progress = structuredClone(before);
  after[chapterId] ??= {};
  after[chapterId][dayId] ??= {};
  after[chapterId][dayId][taskId] = statusAfterSave(
    taskStatus(asProgressMap(before), chapterId, dayId, taskId),
    status as TaskStatus,
  );
  return after;
}

/**
 * The completed days after an accepted save of `target` (decision 030): those before, and the days
 * the save records by the course rules (daysCompletedBySave): the target day when every one of its
 * tasks is now completed, and for a learner any earlier day whose tasks were all completed already (a
 * row a concurrent save missed, recorded by the next save after it). Staff recording their own
 * progress are not held by the earlier days, so only their target counts.
 */
export function completedAfterSave(
  course: readonly Chapter[],
  [chapterId, dayId]: readonly [string, string, string],
  after: Progress,
  completed: readonly string[],
  caller: { staff: boolean },
): string[] {
  const viewer = { signedIn: true, role: caller.staff ? ("Tutor" as const) : ("Student" as const) };
  const recorded = daysCompletedBySave(courseOutline(course), { chapterId, dayId }, asProgressMap(after), viewer);
  return [...new Set([...completed, ...recorded.map(keyOf)])].sort();
}

/**
 * The completed days after staff set `target` to `status` (decision 030): completing the day's last
 * task records the day (completesDay); moving a completed task back (to in-progress or not-started)
 * removes it (reopensDay).
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
  const day = courseOutline(course).find((entry) => entry.chapterId === chapterId && entry.dayId === dayId)!;
  const previous = taskStatus(asProgressMap(before), chapterId, dayId, taskId);
  if (reopensDay(previous, status as TaskStatus)) result.delete(keyOf(day));
  if (completesDay(asProgressMap(after), day)) result.add(keyOf(day));
  return [...result].sort();
}
