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

/** A day is complete when every one of its tasks is completed. */
export function isDayComplete(progress: ProgressMap, day: OutlineDay): boolean {
  return day.taskIds.every((taskId) => taskStatus(progress, day.chapterId, day.dayId, taskId) === "completed");
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
  if (day.taskIds.length > 0 && isDayComplete(progress, day)) return "completed";
  const entries = progress[day.chapterId]?.[day.dayId];
  if (entries && Object.keys(entries).length > 0) return "in-progress";
  return "locked";
}

/**
 * Whether a viewer may open a day. Tutors and admins see every day open. For learners the first day
 * is always open; any other day opens only when every earlier day, in course order and across
 * chapters, is finished (isDayFinished: completed once, or every current task completed), the day
 * has content, and (for days that ask it) the viewer is signed in.
 */
export function isDayUnlocked(
  outline: readonly OutlineDay[],
  progress: ProgressMap,
  target: DayRef,
  viewer: Viewer,
  completedDays: CompletedDays = [],
): boolean {
  const index = outline.findIndex((day) => day.chapterId === target.chapterId && day.dayId === target.dayId);
  if (index === -1) return false;
  if (viewer.role && STAFF_ROLES.includes(viewer.role)) return true;
  const day = outline[index]!;
  if (day.requiresSignIn && !viewer.signedIn) return false;
  return outline.slice(0, index).every((earlier) => isDayFinished(progress, earlier, completedDays));
}

/** The first earlier day a learner still has to finish before `target` opens, if any. */
export function firstIncompleteDayBefore(
  outline: readonly OutlineDay[],
  progress: ProgressMap,
  target: DayRef,
  completedDays: CompletedDays = [],
): OutlineDay | null {
  const index = outline.findIndex((day) => day.chapterId === target.chapterId && day.dayId === target.dayId);
  return (
    outline.slice(0, Math.max(index, 0)).find((earlier) => !isDayFinished(progress, earlier, completedDays)) ?? null
  );
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
  const complete = days.filter(
    (day) => wasCompletedOnce(completedDays, day) || (day.taskIds.length > 0 && isDayComplete(progress, day)),
  );
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
