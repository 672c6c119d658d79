import { and, asc, eq, inArray, max, ne, sql } from "drizzle-orm";
import type { DayRef, TaskRef } from "#course/progress-rules";
import type { TaskStatus } from "#course/progress-status";
import type { Database, Queryable } from "#server/db/client";
import type { LentRead } from "#server/db/lent-read";
import {
  BACKFILL_DAY_COMPLETIONS,
  CLEAR_FOR_USER,
  PROGRESS_OF_USER,
  type ProgressRow,
  RECORD_FOR_LEARNER,
  RESET_FOR_USER,
  SELF_STUDY_FINISHED,
  SET_FOR_USER,
  STARTED_TASKS,
  type TaskColumns,
} from "./progress.sql";
import { dayCompletion, taskProgress } from "./progress.tables";

export type { ProgressRow, TaskColumns } from "./progress.sql";

/** A task of a user, by the columns that name it (task_progress calls the day section_id). */
const ofTask = (userId: string, { chapterId, dayId, taskId }: TaskRef) =>
  and(
    eq(taskProgress.userId, userId),
    eq(taskProgress.chapterId, chapterId),
    eq(taskProgress.sectionId, dayId),
    eq(taskProgress.taskId, taskId),
  );

/**
 * The progress module's tables: task_progress (a status per task) and day_completion (the days a
 * user completed once, decision 030). The statements a save or a staff change sends are written
 * out in progress.sql.ts and prepared once per connection, by name; the rest are drizzle queries,
 * which take the caller's transaction where one is given.
 */
export function createProgressRepository(db: Database) {
  return {
    ...preparedChanges(db),
    ...courseWideReads(db),
    ...dayChanges(db),
    ...learnerRecord(db),
  };
}

/** The prepared statements of a learner's save and of staff's changes, and the rows they read back. */
function preparedChanges(db: Database) {
  return {
    /** A user's progress and completed days (PROGRESS_OF_USER). */
    async rowsOf(userId: string): Promise<ProgressRow[]> {
      const { rows } = await db.$client.query<ProgressRow>({
        name: "progress_and_completions_of_user",
        text: PROGRESS_OF_USER,
        values: [userId],
      });
      return rows;
    },

    /** A learner's save (RECORD_FOR_LEARNER): `required` the tasks before the day, `dayTaskIds` the day's own. */
    async recordForLearner(
      userId: string,
      target: TaskRef,
      status: TaskStatus,
      required: TaskColumns,
      dayTaskIds: readonly string[],
    ): Promise<Array<ProgressRow & { open: boolean | null }>> {
      const { rows } = await db.$client.query<ProgressRow & { open: boolean | null }>({
        name: "record_progress_for_learner",
        text: RECORD_FOR_LEARNER,
        values: [userId, target.chapterId, target.dayId, target.taskId, status, ...required, dayTaskIds],
      });
      return rows;
    },

    /**
     * Staff set a task of a user (SET_FOR_USER) whose role is one of `openRoles`; the closing row
     * carries the user's role (null: no such user), and nothing is written unless it is open.
     */
    async setForUser(
      userId: string,
      target: TaskRef,
      status: TaskStatus,
      dayTaskIds: readonly string[],
      openRoles: readonly string[],
    ): Promise<Array<ProgressRow & { role: string | null }>> {
      const { rows } = await db.$client.query<ProgressRow & { role: string | null }>({
        name: "set_progress_for_user",
        text: SET_FOR_USER,
        values: [userId, target.chapterId, target.dayId, target.taskId, status, dayTaskIds, openRoles],
      });
      return rows;
    },

    /** Staff set a task not-started (CLEAR_FOR_USER). */
    async clearForUser(userId: string, target: TaskRef): Promise<void> {
      await db.$client.query({
        name: "clear_progress_for_user",
        text: CLEAR_FOR_USER,
        values: [userId, target.chapterId, target.dayId, target.taskId],
      });
    },

    /** The tutor's reset (RESET_FOR_USER); answers how many task records there were. */
    async resetForUser(userId: string): Promise<number> {
      const result = await db.$client.query({
        name: "reset_progress_for_user",
        text: RESET_FOR_USER,
        values: [userId],
      });
      return result.rowCount ?? 0;
    },
  };
}

/** Reads over every task of the course: the start's backfill, the days waiting on a session, the tasks started. */
function courseWideReads(db: Database) {
  return {
    /** The start's backfill (BACKFILL_DAY_COMPLETIONS) over every task of the course; answers how many rows it added. */
    async backfillCompletions(tasks: TaskColumns): Promise<number> {
      const result = await db.$client.query(BACKFILL_DAY_COMPLETIONS, tasks);
      return result.rowCount ?? 0;
    },

    /** The days users wait on a live session for (SELF_STUDY_FINISHED), given every day's self-study tasks. */
    async selfStudyFinished(
      tasks: TaskColumns,
      limit: number,
    ): Promise<{ userId: string; chapterId: string; dayId: string; since: Date }[]> {
      const result = await db.$client.query(SELF_STUDY_FINISHED, [...tasks, limit]);
      return result.rows;
    },

    /** The tasks these users have completed, each with whose it is. */
    async completedTasksOf(userIds: readonly string[]): Promise<(TaskRef & { userId: string })[]> {
      if (userIds.length === 0) return [];
      return db
        .select({
          userId: taskProgress.userId,
          chapterId: taskProgress.chapterId,
          dayId: taskProgress.sectionId,
          taskId: taskProgress.taskId,
        })
        .from(taskProgress)
        .where(and(inArray(taskProgress.userId, [...userIds]), eq(taskProgress.status, "completed")));
    },

    /** The tasks a user has started (STARTED_TASKS), to run inside another module's statement. */
    startedTasksRead: { sql: STARTED_TASKS, read: (json: unknown) => json as TaskRef[] } satisfies LentRead<TaskRef[]>,

    /** The tasks a user has started (STARTED_TASKS), read on the pool by a prepared statement. */
    async startedTasks(userId: string): Promise<TaskRef[]> {
      const { rows } = await db.$client.query<{ started: TaskRef[] }>({
        name: "progress_started_tasks",
        text: `select ${STARTED_TASKS} as started`,
        values: [userId],
      });
      return rows[0]!.started;
    },
  };
}

/** A day's statuses read and moved forward in the caller's transaction, and its completion recorded. */
function dayChanges(db: Database) {
  return {
    /**
     * The tasks a user has a status for other than not-started, with it, and the days they
     * completed once, in one statement: what judges whether a day is open to them.
     */
    async openingFacts(userId: string, q: Queryable = db) {
      const rows = await q
        .select({
          chapterId: taskProgress.chapterId,
          dayId: taskProgress.sectionId,
          taskId: sql<string | null>`${taskProgress.taskId}`,
          status: sql<TaskStatus | null>`${taskProgress.status}`,
        })
        .from(taskProgress)
        .where(and(eq(taskProgress.userId, userId), ne(taskProgress.status, "not-started")))
        .unionAll(
          q
            .select({
              chapterId: dayCompletion.chapterId,
              dayId: dayCompletion.dayId,
              taskId: sql<string | null>`null`,
              status: sql<TaskStatus | null>`null`,
            })
            .from(dayCompletion)
            .where(eq(dayCompletion.userId, userId)),
        );
      return {
        recorded: rows.flatMap(({ taskId, status, ...day }) => (taskId && status ? [{ ...day, taskId, status }] : [])),
        completed: rows.filter((row) => row.taskId === null).map(({ chapterId, dayId }) => ({ chapterId, dayId })),
      };
    },

    /** The task's stored status; undefined without a record. */
    async statusOf(userId: string, target: TaskRef, q: Queryable = db): Promise<TaskStatus | undefined> {
      const [row] = await q.select({ status: taskProgress.status }).from(taskProgress).where(ofTask(userId, target));
      return row?.status;
    },

    /** The statuses the user has recorded for the day's tasks. */
    statusesOfDay(userId: string, { chapterId, dayId }: DayRef, q: Queryable = db) {
      return q
        .select({ taskId: taskProgress.taskId, status: taskProgress.status })
        .from(taskProgress)
        .where(
          and(
            eq(taskProgress.userId, userId),
            eq(taskProgress.chapterId, chapterId),
            eq(taskProgress.sectionId, dayId),
          ),
        );
    },

    /**
     * Upserts a task's status, only forward: a completed task is never changed (statusAfterSave),
     * and an unchanged status is not rewritten. `byStaff`: staff made the change, not the learner.
     */
    async moveForward(
      userId: string,
      target: TaskRef,
      status: TaskStatus,
      byStaff: boolean,
      q: Queryable = db,
    ): Promise<void> {
      await q
        .insert(taskProgress)
        .values({
          userId,
          chapterId: target.chapterId,
          sectionId: target.dayId,
          taskId: target.taskId,
          status,
          byStaff,
          learnerAt: byStaff ? null : sql`now()`,
        })
        .onConflictDoUpdate({
          target: [taskProgress.userId, taskProgress.chapterId, taskProgress.sectionId, taskProgress.taskId],
          // Staff's change keeps the time the learner last changed the task.
          set: { status, byStaff, updatedAt: sql`now()`, ...(byStaff ? {} : { learnerAt: sql`now()` }) },
          setWhere: sql`${taskProgress.status} <> 'completed' and ${taskProgress.status} is distinct from excluded.status`,
        });
    },

    /** Records the day as completed once by the user; nothing when it already is. */
    async recordDayCompleted(userId: string, { chapterId, dayId }: DayRef, q: Queryable = db): Promise<void> {
      await q.insert(dayCompletion).values({ userId, chapterId, dayId }).onConflictDoNothing();
    },
  };
}

/** What a learner's record holds: tasks recorded, days completed, their last activity, the export. */
function learnerRecord(db: Database) {
  return {
    /** The tasks a user has a status for other than not-started, with it. */
    recordedTasks(userId: string, q: Queryable = db) {
      return q
        .select({
          chapterId: taskProgress.chapterId,
          dayId: taskProgress.sectionId,
          taskId: taskProgress.taskId,
          status: taskProgress.status,
        })
        .from(taskProgress)
        .where(and(eq(taskProgress.userId, userId), ne(taskProgress.status, "not-started")));
    },

    /** The days a user has completed once. */
    completedDays(userId: string, q: Queryable = db) {
      return q
        .select({ chapterId: dayCompletion.chapterId, dayId: dayCompletion.dayId })
        .from(dayCompletion)
        .where(eq(dayCompletion.userId, userId));
    },

    /**
     * When the user last changed a task's status themselves, if ever: staff's changes are not their
     * activity, and do not take away the time of the learner's own change before them.
     */
    async lastUpdatedAt(userId: string, q: Queryable = db): Promise<Date | null> {
      const [row] = await q
        .select({ at: max(taskProgress.learnerAt) })
        .from(taskProgress)
        .where(eq(taskProgress.userId, userId));
      return row?.at ?? null;
    },

    /** Every task record of the user (not-started ones included), by task; and every day completed, oldest first. */
    async exportFor(userId: string) {
      const [progress, completedDays] = await Promise.all([
        db
          .select({
            chapterId: taskProgress.chapterId,
            dayId: taskProgress.sectionId,
            taskId: taskProgress.taskId,
            status: taskProgress.status,
            updatedAt: taskProgress.updatedAt,
          })
          .from(taskProgress)
          .where(eq(taskProgress.userId, userId))
          .orderBy(asc(taskProgress.chapterId), asc(taskProgress.sectionId), asc(taskProgress.taskId)),
        db
          .select({
            chapterId: dayCompletion.chapterId,
            dayId: dayCompletion.dayId,
            completedAt: dayCompletion.completedAt,
          })
          .from(dayCompletion)
          .where(eq(dayCompletion.userId, userId))
          .orderBy(asc(dayCompletion.completedAt), asc(dayCompletion.chapterId), asc(dayCompletion.dayId)),
      ]);
      return { progress, completedDays };
    },
  };
}

export type ProgressRepository = ReturnType<typeof createProgressRepository>;
