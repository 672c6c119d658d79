import { courseOutline, findDay } from "#course/course";
import { type CompletedDays, isDayComplete, type ProgressMap } from "#course/progress-rules";
import type { Role } from "#course/roles";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import type { AppInProcess } from "#tests/web/app-in-process";

/**
 * Shared set-up for the course page tests against the app in process (tests/web/app-in-process.ts),
 * on the fixture course (tests/fixtures/course.ts), which both the page and the server hold. Progress
 * built here is written straight into the database, so it may hold what a learner cannot write through
 * the API (a practice set completed without answers); to complete a day as a learner does, through
 * its answers and saves, use `app.completeDay`.
 */

export const FIXTURE_OUTLINE = courseOutline(FIXTURE_COURSE);

/** A day of the fixture course, by its ids; throws for one it does not have, so a test cannot pass on nothing. */
export function fixtureDay(chapterId: string, dayId: string) {
  const found = findDay(FIXTURE_COURSE, chapterId, dayId);
  if (!found) throw new Error(`The fixture course has no ${chapterId}/${dayId}.`);
  return found.day;
}

/** Progress with every task of the given days completed, over `extra`. */
export function completeDays(days: ReadonlyArray<[chapterId: string, dayId: string]>, extra: ProgressMap = {}) {
  const progress: ProgressMap = structuredClone(extra);
  for (const [chapterId, dayId] of days) {
    const chapter = progress[chapterId] ?? {};
    progress[chapterId] = chapter;
    const tasks = fixtureDay(chapterId, dayId).tasks.map((task) => [task.id, "completed"] as const);
    chapter[dayId] = { ...chapter[dayId], ...Object.fromEntries(tasks) };
  }
  return progress;
}

/** The days whose every task `progress` completes: those the server records as completed once. */
export function daysFinishedIn(progress: ProgressMap): CompletedDays {
  return FIXTURE_OUTLINE.filter((day) => day.taskIds.length > 0 && isDayComplete(progress, day)).map(
    ({ chapterId, dayId }) => ({ chapterId, dayId }),
  );
}

/**
 * Signs in a new learner (or staff) whose stored progress is `progress`. `completedDays` are the days
 * they completed once (decision 030); by default the days `progress` completes, as the server would
 * have recorded them.
 */
export async function signInWithProgress(
  app: AppInProcess,
  progress: ProgressMap = {},
  { role = "Student", completedDays = daysFinishedIn(progress) }: { role?: Role; completedDays?: CompletedDays } = {},
) {
  const user = await app.signInAs(role);
  await app.seedProgress(user.id, progress, completedDays);
  return user;
}
