import { and, asc, eq, max, ne, sql } from "drizzle-orm";
import type { DayRef, TaskRef } from "#course/progress-rules";
import type { TaskStatus } from "#course/progress-status";
import type { Database, Queryable } from "#server/db/client";
import type { LentRead } from "#server/db/lent-read";
import { dayCompletion, taskProgress } from "#server/db/schema";

/** Tasks as the statements take them: three arrays (chapter, day, task ids), one entry per task. */
export type TaskColumns = [chapterIds: string[], dayIds: string[], taskIds: string[]];

/**
 * A row of the progress statements below: a task's status (task_id set), a day completed once
 * (chapter_id and section_id set, task_id null), or the closing row (chapter_id null) that carries
 * the learner's gate.
 */
export interface ProgressRow {
  chapter_id: string | null;
  section_id: string;
  task_id: string | null;
  status: TaskStatus;
}

/**
 * A learner's save in one statement. It reads their progress and the days they have completed once
 * (`done`), and opens the target day when every day before it ($6–$8 list those days' tasks:
 * tasksRequiredBefore) is finished: completed once, or with every task completed (decision 030;
 * isDayUnlocked and isDayFinished in src/course/progress-rules.ts, said again here in SQL). Only then does it upsert
 * the task, and record the days this save leaves complete (daysCompletedBySave): the target day when
 * its tasks ($9) are now all completed, and any earlier day whose tasks are all completed but whose row is missing
 * (two saves that completed a day's last two tasks at the same moment each saw the other's task
 * unfinished; the next save after the day repairs that). The answer is the progress as it was before
 * the write, the completed days including those just recorded, and whether the day was open;
 * PostgreSQL runs the inserts even though the final select reads only what they return.
 *
 * A save that would change nothing (the task already has that status, or is completed, and every
 * finished day has its row) sends no insert at all, so it takes no row lock and commits nothing:
 * learners repeat such saves whenever they open a day. The upsert's own WHERE still holds when a
 * concurrent request wrote in between: a task never moves back from completed (statusAfterSave,
 * docs/decisions/011-progress-moves-forward.md), and an unchanged status is not rewritten, so
 * updated_at keeps the time of the last change. A row it writes is the learner's (by_staff false),
 * and learner_at its time, their activity (lastUpdatedAt). Completion rows are inserted in (chapter, day)
 * order, as the start's backfill inserts them, so the two never wait on each other in a cycle.
 */
const RECORD_FOR_LEARNER = `
  with prior as (
    select chapter_id, section_id, task_id, status from task_progress
    where user_id = $1 and status <> 'not-started'
  ),
  done as (
    select chapter_id, day_id from day_completion where user_id = $1
  ),
  required as (
    select * from unnest($6::text[], $7::text[], $8::text[]) as required (chapter_id, section_id, task_id)
  ),
  unfinished as (
    select distinct chapter_id, section_id from required
    where (chapter_id, section_id, task_id) not in (
      select chapter_id, section_id, task_id from prior where status = 'completed'
    )
  ),
  gate as (
    select not exists (
      select from unfinished
      where (chapter_id, section_id) not in (select chapter_id, day_id from done)
    ) as open
  ),
  written as (
    insert into task_progress (user_id, chapter_id, section_id, task_id, status, by_staff, learner_at)
    select $1, $2, $3, $4, $5, false, now() from gate
    where open and not exists (
      select from prior
      where chapter_id = $2 and section_id = $3 and task_id = $4 and status in ($5, 'completed')
    )
    on conflict (user_id, chapter_id, section_id, task_id)
    do update set status = excluded.status, updated_at = now(), by_staff = false, learner_at = now()
    where task_progress.status is distinct from excluded.status and task_progress.status <> 'completed'
  ),
  finished as (
    insert into day_completion (user_id, chapter_id, day_id)
    select $1, chapter_id, section_id from (
      select chapter_id, section_id from required
      except
      select chapter_id, section_id from unfinished
      union
      select $2, $3 where cardinality($9::text[]) > 0 and not exists (
        select from unnest($9::text[]) as day_task (task_id)
        where not (day_task.task_id = $4 and $5 = 'completed')
          and not exists (
            select from prior
            where chapter_id = $2 and section_id = $3 and task_id = day_task.task_id and status = 'completed'
          )
      )
    ) as complete (chapter_id, section_id)
    where (select open from gate)
      and (chapter_id, section_id) not in (select chapter_id, day_id from done)
    order by chapter_id, section_id
    on conflict do nothing
    returning chapter_id, day_id
  )
  select chapter_id, section_id, task_id, status, null::boolean as open from prior
  union all
  select chapter_id, day_id, null, null, null from done
  union all
  select chapter_id, day_id, null, null, null from finished
  union all
  select null, null, null, null, (select open from gate)`;

/**
 * Staff set a task of any user in one statement: the upsert (any status, locking bypassed, marked
 * by_staff, learner_at kept: staff's change is not the learner's activity), the user's progress and completed days as they were before it, and the day's completion: recorded
 * when the task completes the day ($6 lists its tasks; completesDay), removed when the task moves
 * back from completed (reopensDay: the tutor says the day is not done). It writes only when the user
 * exists and their role is one of $7 (the roles the member of staff may act on: rolesOpenTo); the
 * closing row (chapter_id null) carries the user's role, null when there is no such user, so the
 * service answers 404 or 403 without a read of its own. A user deleted mid-statement fails the
 * foreign key: also a 404.
 */
const SET_FOR_USER = `
  with target as (
    select role::text as role, role::text = any($7::text[]) as open from "user" where id = $1
  ),
  prior as (
    select chapter_id, section_id, task_id, status from task_progress
    where user_id = $1 and status <> 'not-started' and (select open from target)
  ),
  written as (
    insert into task_progress (user_id, chapter_id, section_id, task_id, status, by_staff)
    select $1, $2, $3, $4, $5, true from target where open
    on conflict (user_id, chapter_id, section_id, task_id)
    do update set status = excluded.status, updated_at = now(), by_staff = true
    where task_progress.status is distinct from excluded.status
  ),
  reopened as (
    delete from day_completion
    where user_id = $1 and chapter_id = $2 and day_id = $3 and $5 <> 'completed' and (select open from target)
      and exists (
        select from prior where chapter_id = $2 and section_id = $3 and task_id = $4 and status = 'completed'
      )
    returning chapter_id, day_id
  ),
  finished as (
    insert into day_completion (user_id, chapter_id, day_id)
    select $1, $2, $3 where $5 = 'completed' and (select open from target) and not exists (
      select from unnest($6::text[]) as day_task (task_id)
      where day_task.task_id <> $4 and not exists (
        select from prior
        where chapter_id = $2 and section_id = $3 and task_id = day_task.task_id and status = 'completed'
      )
    )
    on conflict do nothing
    returning chapter_id, day_id
  )
  select chapter_id, section_id, task_id, status, null as role from prior
  union all
  select chapter_id, day_id, null, null, null from day_completion
  where user_id = $1 and (select open from target)
    and (chapter_id, day_id) not in (select chapter_id, day_id from reopened)
  union all
  select chapter_id, day_id, null, null, null from finished
  union all
  select null, null, null, null, (select role from target)`;

/** The tasks a user has a status for other than not-started. */
const STARTED_TASKS = `(
  select coalesce(json_agg(json_build_object('chapterId', chapter_id, 'dayId', section_id, 'taskId', task_id)), '[]'::json)
  from task_progress where user_id = $1 and status <> 'not-started')`;

/** A user's progress and completed days, in one statement. */
const PROGRESS_OF_USER = `
  select chapter_id, section_id, task_id, status from task_progress
  where user_id = $1 and status <> 'not-started'
  union all
  select chapter_id, day_id, null, null from day_completion where user_id = $1`;

/**
 * Staff set a task not-started: its record goes, and so does its day's completion when the task was
 * completed (the tutor says the day is not done).
 */
const CLEAR_FOR_USER = `
  with removed as (
    delete from task_progress
    where user_id = $1 and chapter_id = $2 and section_id = $3 and task_id = $4
    returning status
  )
  delete from day_completion
  where user_id = $1 and chapter_id = $2 and day_id = $3 and exists (select from removed where status = 'completed')`;

/** The tutor's reset: every progress record of the user and every day they completed. Counts the records. */
const RESET_FOR_USER = `
  with cleared as (delete from day_completion where user_id = $1)
  delete from task_progress where user_id = $1`;

/**
 * $1-$3 as rows of tasks (chapter, day, task) with each day's count, and a user's progress rows of
 * those tasks: what both day-counting statements below read.
 */
const COURSE_TASKS = `with course_task as (
    select * from unnest($1::text[], $2::text[], $3::text[]) as course_task (chapter_id, day_id, task_id)
  ),
  day_size as (
    select chapter_id, day_id, count(*) as tasks from course_task group by chapter_id, day_id
  )`;
const PROGRESS_OF_COURSE_TASKS = `from task_progress progress
  join course_task
    on course_task.chapter_id = progress.chapter_id
    and course_task.day_id = progress.section_id
    and course_task.task_id = progress.task_id
  join day_size on day_size.chapter_id = progress.chapter_id and day_size.day_id = progress.section_id`;

/**
 * Records the days users completed before completions were recorded (decision 030): every day whose
 * every task, under the course as loaded now, a user has completed. Idempotent; instances that start
 * together insert in the same (user, chapter, day) order, and the one that comes second skips the
 * rows the first inserted, waiting for them if they are not yet committed.
 */
const BACKFILL_DAY_COMPLETIONS = `
  ${COURSE_TASKS}
  insert into day_completion (user_id, chapter_id, day_id)
  select progress.user_id, progress.chapter_id, progress.section_id
  ${PROGRESS_OF_COURSE_TASKS}
  where progress.status = 'completed'
  group by progress.user_id, progress.chapter_id, progress.section_id, day_size.tasks
  having count(*) = day_size.tasks
  order by progress.user_id, progress.chapter_id, progress.section_id
  on conflict do nothing`;

/**
 * The days whose self-study tasks ($1-$3: every day's tasks but its live session's) a user has all
 * completed while the day is not completed: they wait for its live session. With when the last of
 * those tasks was completed, longest waiting first, at most $4.
 */
const SELF_STUDY_FINISHED = `
  ${COURSE_TASKS}
  select progress.user_id as "userId", progress.chapter_id as "chapterId", progress.section_id as "dayId",
    max(progress.updated_at) as "since"
  ${PROGRESS_OF_COURSE_TASKS}
  where progress.status = 'completed'
    and not exists (
      select 1 from day_completion done
      where done.user_id = progress.user_id and done.chapter_id = progress.chapter_id
        and done.day_id = progress.section_id
    )
  group by progress.user_id, progress.chapter_id, progress.section_id, day_size.tasks
  having count(*) = day_size.tasks
  order by "since" asc
  limit $4`;

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
 * out above and prepared once per connection, by name; the rest are drizzle queries, which take the
 * caller's transaction where one is given.
 */
export function createProgressRepository(db: Database) {
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

    /** The task's stored status; undefined without a record. */
    async statusOf(userId: string, target: TaskRef, q: Queryable = db): Promise<TaskStatus | undefined> {
      const [row] = await q.select({ status: taskProgress.status }).from(taskProgress).where(ofTask(userId, target));
      return row?.status;
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

    /** Records the day as completed once by the user; nothing when it already is. */
    async recordDayCompleted(userId: string, { chapterId, dayId }: DayRef, q: Queryable = db): Promise<void> {
      await q.insert(dayCompletion).values({ userId, chapterId, dayId }).onConflictDoNothing();
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
