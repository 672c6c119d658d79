import type { TaskStatus } from "./progress-status";
import type { Role } from "./roles";
import { STAFF_ROLES } from "./roles";

/** A learner's progress as stored: chapter id → day id → task id → status. No entry means not-started. */
export type ProgressMap = Record<string, Record<string, Record<string, TaskStatus>>>;

/** What the rules need to know about a day of the course, in course order. */
export interface OutlineDay {
  chapterId: string;
  dayId: string;
  /** The day's number across the course: 1-5 in chapter 1, 6-10 in chapter 2. */
  number: number;
  taskIds: readonly string[];
  /** Open only to signed-in visitors (spec: chapter 2 shows day 6 unlocked only when signed in). */
  requiresSignIn?: boolean;
}

export type DayStatus = "completed" | "in-progress" | "locked";

/** A day by its ids. */
export type DayRef = Pick<OutlineDay, "chapterId" | "dayId">;

/** A task by its ids. */
export interface TaskRef extends DayRef {
  taskId: string;
}

/**
 * The days a learner has completed once (table day_completion; `completedDays` in GET
 * /api/progress). Such a day stays finished for unlocking and badges after the course gives it a
 * new task (docs/decisions/030-completed-days-stay-complete.md). None for a visitor.
 */
export type CompletedDays = readonly DayRef[];

export interface Viewer {
  signedIn: boolean;
  role?: Role | null;
}

export function taskStatus(progress: ProgressMap, chapterId: string, dayId: string, taskId: string): TaskStatus {
  return progress[chapterId]?.[dayId]?.[taskId] ?? "not-started";
}

/**
 * The status a task has after a save of `sent`: progress only moves forward, so a completed task
 * stays completed (docs/decisions/011-progress-moves-forward.md). Only staff setting a learner's task
 * may move it back.
 */
export function statusAfterSave(current: TaskStatus, sent: TaskStatus): TaskStatus {
  return current === "completed" ? "completed" : sent;
}

/** A day is complete when every one of its tasks is completed. */
export function isDayComplete(progress: ProgressMap, day: OutlineDay): boolean {
  return day.taskIds.every((taskId) => taskStatus(progress, day.chapterId, day.dayId, taskId) === "completed");
}

/**
 * Whether `progress` completes a day: it has tasks and every one is completed. A write that leaves a
 * day so records it as completed once (table day_completion, decision 030); the chapter overview
 * shows it completed and its badge is earned.
 */
export function completesDay(progress: ProgressMap, day: OutlineDay): boolean {
  return day.taskIds.length > 0 && isDayComplete(progress, day);
}

/** Whether the learner has completed this day once (a row of day_completion), whatever its tasks are now. */
export function wasCompletedOnce(completedDays: CompletedDays, day: DayRef): boolean {
  return completedDays.some((done) => done.chapterId === day.chapterId && done.dayId === day.dayId);
}

/**
 * Whether a day counts as finished for unlocking the days after it and for its badge: the learner
 * completed it once, or every one of its current tasks is completed. A task added to a day later
 * therefore never locks a learner out again (decision 030). Its status (dayStatus) still comes from
 * the current tasks, so that day shows in progress until the new task is done.
 */
export function isDayFinished(progress: ProgressMap, day: OutlineDay, completedDays: CompletedDays = []): boolean {
  return wasCompletedOnce(completedDays, day) || isDayComplete(progress, day);
}

/**
 * The status the chapter overview shows (spec section 4): completed when every task is completed;
 * in progress when any task has a status entry; locked otherwise.
 */
export function dayStatus(progress: ProgressMap, day: OutlineDay): DayStatus {
  if (completesDay(progress, day)) return "completed";
  const entries = progress[day.chapterId]?.[day.dayId];
  if (entries && Object.keys(entries).length > 0) return "in-progress";
  return "locked";
}

/** Tutors and admins open every day, whatever their own progress; learners and visitors do not. */
export function opensEveryDay(viewer: Viewer): boolean {
  return Boolean(viewer.role && STAFF_ROLES.includes(viewer.role));
}

function findOutlineDay(outline: readonly OutlineDay[], target: DayRef): { day: OutlineDay; index: number } | null {
  const index = outline.findIndex((day) => day.chapterId === target.chapterId && day.dayId === target.dayId);
  return index === -1 ? null : { day: outline[index]!, index };
}

/** Every day before `target` in course order, across chapters; none for a day the outline lacks. */
function daysBefore(outline: readonly OutlineDay[], target: DayRef): readonly OutlineDay[] {
  return outline.slice(0, findOutlineDay(outline, target)?.index ?? 0);
}

/**
 * The days a viewer must finish (isDayFinished) before `target` opens to them: every earlier day of
 * the course, in course order and across chapters; none for tutors and admins.
 */
export function daysRequiredBefore(
  outline: readonly OutlineDay[],
  target: DayRef,
  viewer: Viewer,
): readonly OutlineDay[] {
  return opensEveryDay(viewer) ? [] : daysBefore(outline, target);
}

/**
 * The tasks of the days required before `target`, one by one: what the server's save statement
 * checks to open the day (src/server/modules/progress/progress.repository.ts).
 */
export function tasksRequiredBefore(outline: readonly OutlineDay[], target: DayRef, viewer: Viewer): TaskRef[] {
  return daysRequiredBefore(outline, target, viewer).flatMap((day) =>
    day.taskIds.map((taskId) => ({ chapterId: day.chapterId, dayId: day.dayId, taskId })),
  );
}

/**
 * Whether a viewer may open a day. Tutors and admins see every day open. For learners the first day
 * is always open; any other day opens only when every earlier day, in course order and across
 * chapters, is finished (isDayFinished: completed once, or every current task completed), and (for
 * days that ask it) the viewer is signed in. The server holds learners' saves and answers to the
 * same rule.
 */
export function isDayUnlocked(
  outline: readonly OutlineDay[],
  progress: ProgressMap,
  target: DayRef,
  viewer: Viewer,
  completedDays: CompletedDays = [],
): boolean {
  const found = findOutlineDay(outline, target);
  if (!found) return false;
  if (opensEveryDay(viewer)) return true;
  if (found.day.requiresSignIn && !viewer.signedIn) return false;
  return daysRequiredBefore(outline, target, viewer).every((earlier) =>
    isDayFinished(progress, earlier, completedDays),
  );
}

/** The first earlier day a learner still has to finish before `target` opens, if any. */
export function firstIncompleteDayBefore(
  outline: readonly OutlineDay[],
  progress: ProgressMap,
  target: DayRef,
  completedDays: CompletedDays = [],
): OutlineDay | null {
  return daysBefore(outline, target).find((earlier) => !isDayFinished(progress, earlier, completedDays)) ?? null;
}

/**
 * The days a save of a task of `target` records as completed once (decision 030), given the progress
 * the save leaves: the target day when that completes it (completesDay), and, for a learner, any day
 * required before it whose tasks are all completed but which has no record yet (two saves that
 * completed its last two tasks at the same moment each saw the other's task unfinished; the next save
 * repairs that). Staff are not held by earlier days, so only their target day counts. Answering a
 * practice set records its day the same way, as a save.
 */
export function daysCompletedBySave(
  outline: readonly OutlineDay[],
  target: DayRef,
  progress: ProgressMap,
  viewer: Viewer,
): OutlineDay[] {
  const found = findOutlineDay(outline, target);
  const candidates = [...daysRequiredBefore(outline, target, viewer), ...(found ? [found.day] : [])];
  return candidates.filter((day) => completesDay(progress, day));
}

/**
 * Whether staff setting a task from `before` to `status` takes its day's completion back: they moved
 * a completed task back, so the tutor says the day is not done (the days after it lock again unless
 * its tasks are all completed). A completion it leaves is recorded as by a save (completesDay).
 */
export function reopensDay(before: TaskStatus, status: TaskStatus): boolean {
  return before === "completed" && status !== "completed";
}

export type Badge =
  | { kind: "invitation"; title: string }
  | { kind: "day-mission"; title: string; dayNumber: number }
  | { kind: "chapter-complete"; title: string };

/** Days a chapter needs complete for its Chapter Complete badge (spec section 9). */
export const CHAPTER_COMPLETE_DAYS = 4;

/**
 * Badges of a chapter (spec section 4): an invitation while no day is complete; a "Day n Mission"
 * badge per complete day; and "Chapter 1 Complete" once at least four days are. A badge is earned by
 * completing the day once: a task the day gains later does not take it away (decision 030).
 */
export function chapterBadges(
  days: readonly OutlineDay[],
  progress: ProgressMap,
  chapterNumber: number,
  completedDays: CompletedDays = [],
): Badge[] {
  const complete = days.filter((day) => wasCompletedOnce(completedDays, day) || completesDay(progress, day));
  if (complete.length === 0) return [{ kind: "invitation", title: "Complete your first day to earn a badge" }];
  const badges: Badge[] = complete.map((day) => ({
    kind: "day-mission",
    title: `Day ${day.number} Mission`,
    dayNumber: day.number,
  }));
  if (complete.length >= CHAPTER_COMPLETE_DAYS) {
    badges.push({ kind: "chapter-complete", title: `Chapter ${chapterNumber} Complete` });
  }
  return badges;
}

/** The task whose completion marks a day's words as learned. */
export const VOCABULARY_TASK_ID = "codebook:review-vocab";

export interface VocabularyEntry {
  malay: string;
  english: string;
}

export interface VocabularySummary<Entry extends VocabularyEntry = VocabularyEntry> {
  total: number;
  learnedCount: number;
  learned: Entry[];
}

/** A chapter's vocabulary: a day's words count as learned once its codebook:review-vocab is completed. */
export function vocabularySummary<Entry extends VocabularyEntry>(
  days: ReadonlyArray<Pick<OutlineDay, "chapterId" | "dayId"> & { vocabulary: readonly Entry[] }>,
  progress: ProgressMap,
): VocabularySummary<Entry> {
  const learned = days
    .filter((day) => taskStatus(progress, day.chapterId, day.dayId, VOCABULARY_TASK_ID) === "completed")
    .flatMap((day) => day.vocabulary);
  const total = days.reduce((sum, day) => sum + day.vocabulary.length, 0);
  return { total, learnedCount: learned.length, learned };
}
