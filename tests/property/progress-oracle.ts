import type { Chapter } from "../../src/course/course";
import type { TestApp } from "../test-app";
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

/**
 * Whether the course has this task and the caller may record it, by the course's rules: an unknown
 * chapter, day or task is a 400. For a learner, a day without content is a 409, and so is a day
 * before which some day of the course (across chapters) still has a task not completed; staff may
 * record any task of any day. "unknown" for raw junk ids: a 4xx, without a rule to say which.
 */
export function verdictFor(
  course: readonly Chapter[],
  ids: readonly Segment[],
  progress: Progress,
  caller: { staff: boolean },
): "open" | "unknown" | 400 | 409 {
  const [chapterId, dayId, taskId] = ids.map((id) => id.value);
  if (chapterId === null || dayId === null || taskId === null) return "unknown";
  const chapter = course.find((candidate) => candidate.id === chapterId);
  const day = chapter?.days.find((candidate) => candidate.id === dayId);
  if (!chapter || !day) return 400;
  if (!caller.staff && !day.available) return 409;
  if (!day.tasks.some((task) => task.id === taskId)) return 400;
  if (caller.staff) return "open";
  const days = course.flatMap((each) => each.days.map((earlier) => ({ chapterId: each.id, day: earlier })));
  const index = days.findIndex((entry) => entry.chapterId === chapterId && entry.day.id === dayId);
  const locked = days
    .slice(0, index)
    .some(({ chapterId: earlierChapter, day: earlier }) =>
      earlier.tasks.some((task) => progress[earlierChapter]?.[earlier.id]?.[task.id] !== "completed"),
    );
  return locked ? 409 : "open";
}
