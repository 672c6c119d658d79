import { and, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { type Chapter, courseOutline, findChapter } from "../../../course/course";
import { firstIncompleteDayBefore, isDayUnlocked, type ProgressMap, taskStatus } from "../../../course/progress-rules";
import { TASK_STATUSES, type TaskStatus } from "../../../course/progress-status";
import { STAFF_ROLES } from "../../../course/roles";
import type { Database } from "../../db/client";
import { taskProgress } from "../../db/schema";
import type { SessionUser } from "../../http/context";
import { badRequest, HttpError } from "../../http/errors";
import { requireAccount, unlessUserVanished } from "../users/users.service";

/** What a learner may record: not-started is the absence of a record, never something to write. */
export const progressUpdateSchema = z
  .object({
    status: z.enum(["in-progress", "completed"], {
      error: (issue) =>
        issue.input === undefined ? "Status is required." : 'Status must be "in-progress" or "completed".',
    }),
  })
  .strict();

export type RecordedStatus = z.infer<typeof progressUpdateSchema>["status"];

/** What staff may set for a learner's task: any status; not-started removes the record. */
export const staffProgressUpdateSchema = z
  .object({
    status: z.enum(TASK_STATUSES, {
      error: (issue) =>
        issue.input === undefined
          ? "Status is required."
          : 'Status must be "not-started", "in-progress" or "completed".',
    }),
  })
  .strict();

export interface ProgressTarget {
  chapterId: string;
  dayId: string;
  taskId: string;
}

const dayLocked = (message: string) => new HttpError(409, "DAY_LOCKED", message);

/** The chapter and day the course has under these ids; an unknown one is a 400 naming it. */
export function findCourseDay(course: readonly Chapter[], chapterId: string, dayId: string) {
  const chapter = findChapter(course, chapterId);
  if (!chapter) throw badRequest(`There is no chapter "${chapterId}".`);
  const day = chapter.days.find((candidate) => candidate.id === dayId);
  if (!day) throw badRequest(`"${chapterId}" has no day "${dayId}".`);
  return { chapter, day };
}

function setStatus(progress: ProgressMap, { chapterId, dayId, taskId }: ProgressTarget, status: TaskStatus) {
  const days = progress[chapterId] ?? {};
  const tasks = days[dayId] ?? {};
  tasks[taskId] = status;
  days[dayId] = tasks;
  progress[chapterId] = days;
}

/**
 * Progress (spec section 4): a learner's own, and any user's for staff (spec section 6). The course
 * is loaded once at start; each request costs one query to read the user's progress and, for a
 * write, one upsert (staff requests one more, to tell an unknown user apart).
 */
export function createProgressService(db: Database, course: readonly Chapter[]) {
  const outline = courseOutline(course);

  async function read(userId: string): Promise<ProgressMap> {
    const rows = await db
      .select({
        chapterId: taskProgress.chapterId,
        dayId: taskProgress.sectionId,
        taskId: taskProgress.taskId,
        status: taskProgress.status,
      })
      .from(taskProgress)
      .where(and(eq(taskProgress.userId, userId), ne(taskProgress.status, "not-started")));
    const progress: ProgressMap = {};
    for (const row of rows) setStatus(progress, row, row.status);
    return progress;
  }

  /** The chapter, day and task the course has under these ids; any unknown one is a 400 naming it. */
  function findTarget({ chapterId, dayId, taskId }: ProgressTarget, user: SessionUser) {
    const { day } = findCourseDay(course, chapterId, dayId);
    // A day without content has no tasks yet; a learner is told that, not that the task is unknown.
    if (!day.available && !STAFF_ROLES.includes(user.role)) {
      throw dayLocked(`Day ${day.number} is not available yet.`);
    }
    if (!day.tasks.some((task) => task.id === taskId)) {
      throw badRequest(`Day ${day.number} of ${chapterId} has no task "${taskId}".`);
    }
    return day;
  }

  return {
    /** The user's progress; tasks without a record (or recorded as not-started) are left out. */
    read,

    /**
     * Records a task's status for the user and answers their whole progress. Learners may only
     * record tasks of days they have unlocked, and their progress only moves forward: a completed
     * task stays completed (docs/decisions/011-progress-moves-forward.md). Nothing is written
     * when the stored status would not change, so updated_at keeps the time of the last change.
     */
    async record(user: SessionUser, target: ProgressTarget, status: RecordedStatus): Promise<ProgressMap> {
      const day = findTarget(target, user);
      const progress = await read(user.id);
      if (!isDayUnlocked(outline, progress, target, { signedIn: true, role: user.role })) {
        const blocking = firstIncompleteDayBefore(outline, progress, target);
        throw dayLocked(
          blocking
            ? `Day ${day.number} is locked. Finish Day ${blocking.number} first.`
            : `Day ${day.number} is locked.`,
        );
      }
      await db
        .insert(taskProgress)
        .values({
          userId: user.id,
          chapterId: target.chapterId,
          sectionId: target.dayId,
          taskId: target.taskId,
          status,
        })
        .onConflictDoUpdate({
          target: [taskProgress.userId, taskProgress.chapterId, taskProgress.sectionId, taskProgress.taskId],
          set: { status, updatedAt: sql`now()` },
          // Enforced here rather than after the read above, so a request that read before a
          // concurrent one wrote still cannot move a task back from completed.
          setWhere: sql`task_progress.status is distinct from excluded.status and task_progress.status <> 'completed'`,
        });
      if (taskStatus(progress, target.chapterId, target.dayId, target.taskId) !== "completed") {
        setStatus(progress, target, status);
      }
      return progress;
    },

    /** Any user's progress, for staff. An unknown user is a 404. */
    async readFor(userId: string): Promise<ProgressMap> {
      await requireAccount(db, userId);
      return read(userId);
    },

    /**
     * Staff set any status of a user's task (spec section 6): day locking is bypassed and progress
     * may move back; not-started removes the record. Nothing is written when the status would not
     * change. Answers the user's whole progress.
     */
    async setFor(staff: SessionUser, userId: string, target: ProgressTarget, status: TaskStatus): Promise<ProgressMap> {
      findTarget(target, staff);
      await requireAccount(db, userId);
      const key = and(
        eq(taskProgress.userId, userId),
        eq(taskProgress.chapterId, target.chapterId),
        eq(taskProgress.sectionId, target.dayId),
        eq(taskProgress.taskId, target.taskId),
      );
      if (status === "not-started") {
        await db.delete(taskProgress).where(key);
      } else {
        await unlessUserVanished(() =>
          db
            .insert(taskProgress)
            .values({
              userId,
              chapterId: target.chapterId,
              sectionId: target.dayId,
              taskId: target.taskId,
              status,
            })
            .onConflictDoUpdate({
              target: [taskProgress.userId, taskProgress.chapterId, taskProgress.sectionId, taskProgress.taskId],
              set: { status, updatedAt: sql`now()` },
              setWhere: sql`task_progress.status is distinct from excluded.status`,
            }),
        );
      }
      return read(userId);
    },

    /** Removes every progress record of a user (the tutor's reset) and says how many there were. */
    async resetFor(userId: string): Promise<number> {
      await requireAccount(db, userId);
      const result = await db.delete(taskProgress).where(eq(taskProgress.userId, userId));
      return result.rowCount ?? 0;
    },
  };
}

export type ProgressService = ReturnType<typeof createProgressService>;
