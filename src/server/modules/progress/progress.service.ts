import { type Chapter, courseOutline, lookUpDay, lookUpTask, pageTasks } from "#course/course";
import {
  completesDay,
  type DayRef,
  firstIncompleteDayBefore,
  isDayUnlocked,
  type OutlineDay,
  opensEveryDay,
  type ProgressMap,
  statusAfterSave,
  type TaskRef,
  taskStatus,
  tasksRequiredBefore,
  type Viewer,
} from "#course/progress-rules";
import type { TaskStatus } from "#course/progress-status";
import { rolesOpenTo } from "#course/roles";
import { checkAccount, requireAccount, type Staff, unlessUserVanished } from "#server/db/accounts";
import type { Database, Queryable } from "#server/db/client";
import type { SessionUser } from "#server/http/context";
import { badRequest, HttpError } from "#server/http/errors";
import type { ProgressView, RecordedStatus } from "./progress.contract";
import { createProgressRepository, type ProgressRow, type TaskColumns } from "./progress.repository";

/** The 409 a learner gets for a locked day, naming the first earlier day still to finish. */
function dayLockedError(
  outline: readonly OutlineDay[],
  day: { number: number },
  progress: ProgressMap,
  target: DayRef,
  completedDays: readonly DayRef[],
): HttpError {
  const blocking = firstIncompleteDayBefore(outline, progress, target, completedDays);
  return new HttpError(
    409,
    "DAY_LOCKED",
    blocking ? `Day ${day.number} is locked. Finish Day ${blocking.number} first.` : `Day ${day.number} is locked.`,
  );
}

/** The day of a task the course has under these ids; any unknown one is a 400 naming it. */
function findCourseTask(course: readonly Chapter[], target: TaskRef) {
  const found = lookUpTask(course, target);
  if ("unknown" in found) throw badRequest(found.unknown);
  return found.day;
}

function setStatus(progress: ProgressMap, { chapterId, dayId, taskId }: TaskRef, status: TaskStatus) {
  const days = progress[chapterId] ?? {};
  const tasks = days[dayId] ?? {};
  tasks[taskId] = status;
  days[dayId] = tasks;
  progress[chapterId] = days;
}

function taskColumns(tasks: readonly TaskRef[]): TaskColumns {
  return [tasks.map((task) => task.chapterId), tasks.map((task) => task.dayId), tasks.map((task) => task.taskId)];
}

/** Every task of the course, for the statement that judges whole days. */
function everyTask(outline: readonly OutlineDay[]): TaskRef[] {
  return outline.flatMap((day) =>
    day.taskIds.map((taskId) => ({ chapterId: day.chapterId, dayId: day.dayId, taskId })),
  );
}

/** The answer of a repository statement: its task rows as the map, its day rows as the completed days. */
function viewOf(rows: readonly ProgressRow[], outline: readonly OutlineDay[]): ProgressView {
  const progress: ProgressMap = {};
  const completedDays: DayRef[] = [];
  for (const row of rows) {
    if (row.chapter_id === null) continue;
    if (row.task_id === null) completedDays.push({ chapterId: row.chapter_id, dayId: row.section_id });
    else setStatus(progress, { chapterId: row.chapter_id, dayId: row.section_id, taskId: row.task_id }, row.status);
  }
  return { progress, completedDays: inCourseOrder(completedDays, outline) };
}

/** Days in course order; a day the course no longer has goes last, by its ids. */
function inCourseOrder(days: DayRef[], outline: readonly OutlineDay[]): DayRef[] {
  const position = (day: DayRef) => {
    const index = outline.findIndex((each) => each.chapterId === day.chapterId && each.dayId === day.dayId);
    return index === -1 ? outline.length : index;
  };
  return days.sort(
    (a, b) => position(a) - position(b) || a.chapterId.localeCompare(b.chapterId) || a.dayId.localeCompare(b.dayId),
  );
}

/**
 * Inserts the completion of every day users have finished under the course as loaded now
 * (BACKFILL_DAY_COMPLETIONS), so a task added to a day later does not lock them out. Run at every
 * start, after the migrations; answers how many rows it added.
 */
export async function backfillDayCompletions(db: Database, course: readonly Chapter[]): Promise<number> {
  return createProgressRepository(db).backfillCompletions(taskColumns(everyTask(courseOutline(course))));
}

/**
 * Progress (spec section 4): a learner's own, and any user's for staff (spec section 6). The course
 * is loaded once at start. A learner's save and a staff member's change are one statement each
 * (progress.repository.ts), which reads the user's progress and writes the task. Which days open,
 * what a save records and when a day counts as completed are the rules of src/course/progress-rules.ts;
 * the statements take their inputs from them.
 */
export function createProgressService(db: Database, course: readonly Chapter[]) {
  const ctx = progressContext(db, course);
  return { ...learnerSaves(ctx), ...staffChanges(ctx), ...dayGates(ctx), ...progressReads(ctx) };
}

/** What the service's use cases share: the course's outline, the repository, a user's progress read. */
function progressContext(db: Database, course: readonly Chapter[]) {
  const outline = courseOutline(course);
  const rows = createProgressRepository(db);
  const outlineDay = (target: DayRef) =>
    outline.find((day) => day.chapterId === target.chapterId && day.dayId === target.dayId);
  return {
    db,
    course,
    outline,
    rows,
    outlineDay,
    tasksOfDay: (target: DayRef) => outlineDay(target)?.taskIds ?? [],
    findTarget: (target: TaskRef) => findCourseTask(course, target),
    read: async (userId: string): Promise<ProgressView> => viewOf(await rows.rowsOf(userId), outline),
  };
}

type ProgressContext = ReturnType<typeof progressContext>;

/** A learner's own progress: read, and saved one task at a time. */
function learnerSaves(ctx: ProgressContext) {
  const { outline, rows, tasksOfDay, findTarget, read } = ctx;
  // The tasks each day needs finished before it, as the learner's save statement takes them, made once per day.
  const required = new Map<string, TaskColumns>();
  function requiredBefore(target: DayRef, viewer: Viewer): TaskColumns {
    if (opensEveryDay(viewer)) return taskColumns(tasksRequiredBefore(outline, target, viewer));
    const key = `${target.chapterId}/${target.dayId}`;
    let columns = required.get(key);
    if (!columns) {
      columns = taskColumns(tasksRequiredBefore(outline, target, viewer));
      required.set(key, columns);
    }
    return columns;
  }

  return {
    /** The user's progress (tasks without a record, or recorded as not-started, are left out) and completed days. */
    read,

    /**
     * Records a task's status for the user and answers their whole progress. Learners may only
     * record tasks of days they have unlocked, and their progress only moves forward: a completed
     * task stays completed. A save that completes a day records the day as completed once, which
     * keeps the days after it open whatever tasks the day gains later (decision 030). Staff
     * recording their own progress are not held by locking.
     */
    async record(user: SessionUser, target: TaskRef, status: RecordedStatus): Promise<ProgressView> {
      const day = findTarget(target);
      const viewer = { signedIn: true, role: user.role };
      const saved = await rows.recordForLearner(
        user.id,
        target,
        status,
        requiredBefore(target, viewer),
        tasksOfDay(target),
      );
      const view = viewOf(saved, outline);
      if (!saved.find((row) => row.chapter_id === null)?.open) {
        throw dayLockedError(outline, day, view.progress, target, view.completedDays);
      }
      const current = taskStatus(view.progress, target.chapterId, target.dayId, target.taskId);
      setStatus(view.progress, target, statusAfterSave(current, status));
      return view;
    },
  };
}

/** Staff reading and changing any user's progress (spec section 6). */
function staffChanges(ctx: ProgressContext) {
  const { db, outline, rows, tasksOfDay, findTarget, read } = ctx;
  return {
    /** Any user's progress and completed days, for staff. An unknown user is a 404. */
    async readFor(staff: Staff, userId: string): Promise<ProgressView> {
      await requireAccount(db, userId, staff);
      return read(userId);
    },

    /**
     * Staff set any status of a user's task (spec section 6): day locking is bypassed and progress
     * may move back; not-started removes the record. Completing a day's last task records the day
     * as completed; moving a completed task back removes that (the tutor says the day is not done,
     * so the days after it lock again unless its tasks are all completed). Nothing is written when
     * the status would not change. Answers the user's whole progress.
     */
    async setFor(staff: Staff, userId: string, target: TaskRef, status: TaskStatus): Promise<ProgressView> {
      findTarget(target);
      if (status === "not-started") {
        await requireAccount(db, userId, staff);
        await rows.clearForUser(userId, target);
        return read(userId);
      }
      const set = await unlessUserVanished(() =>
        rows.setForUser(userId, target, status, tasksOfDay(target), rolesOpenTo(staff.role)),
      );
      checkAccount(set.find((row) => row.chapter_id === null)?.role ?? null, staff);
      const view = viewOf(set, outline);
      setStatus(view.progress, target, status);
      return view;
    },

    /**
     * Removes every progress record of a user and the days they completed (the tutor's reset), and
     * says how many records there were.
     */
    async resetFor(staff: Staff, userId: string): Promise<number> {
      await requireAccount(db, userId, staff);
      return rows.resetForUser(userId);
    },
  };
}

/** What other modules check and move in their own transactions: an open day, a task moved forward. */
function dayGates(ctx: ProgressContext) {
  const { db, course, outline, rows, outlineDay } = ctx;
  return {
    /**
     * 409 DAY_LOCKED, naming the day to finish first, unless the user may open the target's day
     * (isDayUnlocked, with the days they completed once); staff are never locked out. Read in the
     * caller's transaction: the answers module checks it before storing an answer, the speaking
     * module before storing a take.
     */
    async assertDayOpen(user: SessionUser, target: DayRef, q: Queryable = db): Promise<void> {
      const viewer = { signedIn: true, role: user.role };
      if (opensEveryDay(viewer)) return;
      const found = lookUpDay(course, target.chapterId, target.dayId);
      if ("unknown" in found) throw badRequest(found.unknown);
      const { day } = found;
      const { recorded, completed } = await rows.openingFacts(user.id, q);
      const progress: ProgressMap = {};
      for (const row of recorded) setStatus(progress, row, row.status);
      if (isDayUnlocked(outline, progress, target, viewer, completed)) return;
      throw dayLockedError(outline, day, progress, target, completed);
    },

    /**
     * Moves a task forward for the user, as answering its practice set does: in progress, or
     * completed. Never back: a completed task stays completed (decision 011), and an unchanged
     * status is not rewritten. A completion that completes the day records the day as completed
     * once (decision 030), as a save does. Answers whether the task is completed. `by`: who made
     * the change; a tutor's (a role-play rated in a session) is not the learner's activity.
     */
    async moveTaskForward(
      userId: string,
      target: TaskRef,
      status: RecordedStatus,
      q: Queryable = db,
      by: "learner" | "staff" = "learner",
    ): Promise<boolean> {
      await rows.moveForward(userId, target, status, by === "staff", q);
      if (status !== "completed") return (await rows.statusOf(userId, target, q)) === "completed";
      const day = outlineDay(target);
      const progress: ProgressMap = {};
      for (const row of await rows.statusesOfDay(userId, target, q))
        setStatus(progress, { ...target, ...row }, row.status);
      if (day && completesDay(progress, day)) await rows.recordDayCompleted(userId, day, q);
      return true;
    },

    /** Whether the user's task is completed. */
    async isTaskCompleted(userId: string, target: TaskRef, q: Queryable = db): Promise<boolean> {
      return (await rows.statusOf(userId, target, q)) === "completed";
    },
  };
}

/** What other modules read of progress: who waits on a session, the tasks started, the last activity, the export. */
function progressReads(ctx: ProgressContext) {
  const { db, course, rows } = ctx;
  // Every day's tasks but its live session's, on the days that have one.
  const selfStudyTasks = taskColumns(
    course.flatMap((chapter) =>
      chapter.days.flatMap((day) => {
        const live = new Set(pageTasks(day, "liveSession").map((task) => task.id));
        if (live.size === 0) return [];
        return day.tasks
          .filter((task) => !live.has(task.id))
          .map((task) => ({ chapterId: chapter.id, dayId: day.id, taskId: task.id }));
      }),
    ),
  );

  return {
    /**
     * Who has completed every task of a day but its live session's, on a day with a live session
     * that is not yet completed: they wait for a session with a tutor. Longest waiting first.
     */
    selfStudyFinished: (limit: number) => rows.selfStudyFinished(selfStudyTasks, limit),

    /** The tasks these users have completed (the tutor's week: what is left of a day's live session). */
    completedTasksOf: (userIds: readonly string[]) => rows.completedTasksOf(userIds),

    /** The tasks the user has a status for other than not-started: the days they have met. */
    startedTasks: (userId: string): Promise<TaskRef[]> => rows.startedTasks(userId),

    /** The same, lent to run inside another module's statement (review's summary). */
    startedTasksRead: rows.startedTasksRead,

    /** When the user last changed a task's status themselves (task_progress.updated_at, not by staff), if ever. */
    lastActivityAt: (userId: string, q: Queryable = db): Promise<Date | null> => rows.lastUpdatedAt(userId, q),

    /** The user's part of Export My Data: every task record, and the days completed once, oldest first. */
    exportFor: (userId: string) => rows.exportFor(userId),
  };
}

export type ProgressService = ReturnType<typeof createProgressService>;
