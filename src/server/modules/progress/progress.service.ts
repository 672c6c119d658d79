import { type Chapter, courseOutline, findChapter } from "#course/course";
import {
  type DayRef,
  firstIncompleteDayBefore,
  type OutlineDay,
  type ProgressMap,
  taskStatus,
} from "#course/progress-rules";
import type { TaskStatus } from "#course/progress-status";
import { STAFF_ROLES } from "#course/roles";
import type { Database } from "#server/db/client";
import type { SessionUser } from "#server/http/context";
import { badRequest, HttpError } from "#server/http/errors";
import { requireAccount, unlessUserVanished } from "#server/modules/users/users.service";
import type { ProgressView, RecordedStatus } from "./progress.contract";

export interface ProgressTarget {
  chapterId: string;
  dayId: string;
  taskId: string;
}

const dayLocked = (message: string) => new HttpError(409, "DAY_LOCKED", message);

/** The 409 a learner gets for a locked day, naming the first earlier day still to finish. */
export function dayLockedError(
  outline: readonly OutlineDay[],
  day: { number: number },
  progress: ProgressMap,
  target: DayRef,
  completedDays: readonly DayRef[],
): HttpError {
  const blocking = firstIncompleteDayBefore(outline, progress, target, completedDays);
  return dayLocked(
    blocking ? `Day ${day.number} is locked. Finish Day ${blocking.number} first.` : `Day ${day.number} is locked.`,
  );
}

/** The chapter and day the course has under these ids; an unknown one is a 400 naming it. */
export function findCourseDay(course: readonly Chapter[], chapterId: string, dayId: string) {
  const chapter = findChapter(course, chapterId);
  if (!chapter) throw badRequest(`There is no chapter "${chapterId}".`);
  const day = chapter.days.find((candidate) => candidate.id === dayId);
  if (!day) throw badRequest(`"${chapterId}" has no day "${dayId}".`);
  return { chapter, day };
}

/** The day of a task the course has under these ids; any unknown one is a 400 naming it. */
export function findCourseTask(course: readonly Chapter[], { chapterId, dayId, taskId }: ProgressTarget) {
  const { day } = findCourseDay(course, chapterId, dayId);
  if (!day.tasks.some((task) => task.id === taskId)) {
    throw badRequest(`Day ${day.number} of ${chapterId} has no task "${taskId}".`);
  }
  return day;
}

function setStatus(progress: ProgressMap, { chapterId, dayId, taskId }: ProgressTarget, status: TaskStatus) {
  const days = progress[chapterId] ?? {};
  const tasks = days[dayId] ?? {};
  tasks[taskId] = status;
  days[dayId] = tasks;
  progress[chapterId] = days;
}

/**
 * A row of the progress statements below: a task's status (task_id set), a day completed once
 * (chapter_id and section_id set, task_id null), or the closing row (chapter_id null) that carries
 * the learner's gate.
 */
interface ProgressRow {
  chapter_id: string | null;
  section_id: string;
  task_id: string | null;
  status: TaskStatus;
}

/** The tasks of every day before each day of the outline: a learner's day opens once all are completed. */
function tasksBeforeEachDay(outline: readonly OutlineDay[]) {
  const before = new Map<string, { chapterIds: string[]; dayIds: string[]; taskIds: string[] }>();
  const seen = { chapterIds: [] as string[], dayIds: [] as string[], taskIds: [] as string[] };
  for (const day of outline) {
    before.set(`${day.chapterId}/${day.dayId}`, {
      chapterIds: [...seen.chapterIds],
      dayIds: [...seen.dayIds],
      taskIds: [...seen.taskIds],
    });
    for (const taskId of day.taskIds) {
      seen.chapterIds.push(day.chapterId);
      seen.dayIds.push(day.dayId);
      seen.taskIds.push(taskId);
    }
  }
  return before;
}

/** Every task of the course as three arrays (chapter, day, task), for the statements that judge whole days. */
function everyTask(outline: readonly OutlineDay[]) {
  const tasks = outline.flatMap((day) => day.taskIds.map((taskId) => [day.chapterId, day.dayId, taskId] as const));
  return {
    chapterIds: tasks.map(([chapterId]) => chapterId),
    dayIds: tasks.map(([, dayId]) => dayId),
    taskIds: tasks.map(([, , taskId]) => taskId),
  };
}

/**
 * A learner's save in one statement. It reads their progress and the days they have completed once
 * (`done`), and opens the target day when every day before it ($6–$8 list those days' tasks) is
 * finished: completed once, or with every task completed (decision 030). Only then does it upsert
 * the task, and record the days this save leaves complete: the target day when its tasks ($9) are
 * now all completed, and any earlier day whose tasks are all completed but whose row is missing
 * (two saves that completed a day's last two tasks at the same moment each saw the other's task
 * unfinished; the next save after the day repairs that). The answer is the progress as it was before
 * the write, the completed days including those just recorded, and whether the day was open;
 * PostgreSQL runs the inserts even though the final select reads only what they return.
 *
 * A save that would change nothing (the task already has that status, or is completed, and every
 * finished day has its row) sends no insert at all, so it takes no row lock and commits nothing:
 * learners repeat such saves whenever they open a day. The upsert's own WHERE still holds when a
 * concurrent request wrote in between: a task never moves back from completed
 * (docs/decisions/011-progress-moves-forward.md), and an unchanged status is not rewritten, so
 * updated_at keeps the time of the last change. Completion rows are inserted in (chapter, day)
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
    insert into task_progress (user_id, chapter_id, section_id, task_id, status)
    select $1, $2, $3, $4, $5 from gate
    where open and not exists (
      select from prior
      where chapter_id = $2 and section_id = $3 and task_id = $4 and status in ($5, 'completed')
    )
    on conflict (user_id, chapter_id, section_id, task_id)
    do update set status = excluded.status, updated_at = now()
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
 * Staff set a task of any user in one statement: the upsert (any status, locking bypassed), the
 * user's progress and completed days as they were before it, and the day's completion: recorded
 * when the task completes the day ($6 lists its tasks), removed when the task moves back from
 * completed (the tutor says the day is not done). A user that does not exist fails the foreign
 * key: a 404.
 */
const SET_FOR_USER = `
  with prior as (
    select chapter_id, section_id, task_id, status from task_progress
    where user_id = $1 and status <> 'not-started'
  ),
  written as (
    insert into task_progress (user_id, chapter_id, section_id, task_id, status)
    values ($1, $2, $3, $4, $5)
    on conflict (user_id, chapter_id, section_id, task_id)
    do update set status = excluded.status, updated_at = now()
    where task_progress.status is distinct from excluded.status
  ),
  reopened as (
    delete from day_completion
    where user_id = $1 and chapter_id = $2 and day_id = $3 and $5 <> 'completed'
      and exists (
        select from prior where chapter_id = $2 and section_id = $3 and task_id = $4 and status = 'completed'
      )
    returning chapter_id, day_id
  ),
  finished as (
    insert into day_completion (user_id, chapter_id, day_id)
    select $1, $2, $3 where $5 = 'completed' and not exists (
      select from unnest($6::text[]) as day_task (task_id)
      where day_task.task_id <> $4 and not exists (
        select from prior
        where chapter_id = $2 and section_id = $3 and task_id = day_task.task_id and status = 'completed'
      )
    )
    on conflict do nothing
    returning chapter_id, day_id
  )
  select chapter_id, section_id, task_id, status from prior
  union all
  select chapter_id, day_id, null, null from day_completion
  where user_id = $1 and (chapter_id, day_id) not in (select chapter_id, day_id from reopened)
  union all
  select chapter_id, day_id, null, null from finished`;

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
 * Records the days users completed before completions were recorded (decision 030): every day whose
 * every task, under the course as loaded now, a user has completed. Idempotent; instances that start
 * together insert in the same (user, chapter, day) order, and the one that comes second skips the
 * rows the first inserted, waiting for them if they are not yet committed.
 */
const BACKFILL_DAY_COMPLETIONS = `
  with course_task as (
    select * from unnest($1::text[], $2::text[], $3::text[]) as course_task (chapter_id, day_id, task_id)
  ),
  day_size as (
    select chapter_id, day_id, count(*) as tasks from course_task group by chapter_id, day_id
  )
  insert into day_completion (user_id, chapter_id, day_id)
  select progress.user_id, progress.chapter_id, progress.section_id
  from task_progress progress
  join course_task
    on course_task.chapter_id = progress.chapter_id
    and course_task.day_id = progress.section_id
    and course_task.task_id = progress.task_id
  join day_size on day_size.chapter_id = progress.chapter_id and day_size.day_id = progress.section_id
  where progress.status = 'completed'
  group by progress.user_id, progress.chapter_id, progress.section_id, day_size.tasks
  having count(*) = day_size.tasks
  order by progress.user_id, progress.chapter_id, progress.section_id
  on conflict do nothing`;

/** The answer of a statement above: its task rows as the map, its day rows as the completed days. */
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
  const tasks = everyTask(courseOutline(course));
  const result = await db.$client.query(BACKFILL_DAY_COMPLETIONS, [tasks.chapterIds, tasks.dayIds, tasks.taskIds]);
  return result.rowCount ?? 0;
}

/**
 * Progress (spec section 4): a learner's own, and any user's for staff (spec section 6). The course
 * is loaded once at start. A learner's save and a staff member's change are one statement each
 * (prepared once per connection, by name), which reads the user's progress and writes the task.
 */
export function createProgressService(db: Database, course: readonly Chapter[]) {
  const outline = courseOutline(course);
  const earlierTasks = tasksBeforeEachDay(outline);
  const noTasks = { chapterIds: [], dayIds: [], taskIds: [] };
  const tasksOfDay = (chapterId: string, dayId: string) =>
    outline.find((day) => day.chapterId === chapterId && day.dayId === dayId)?.taskIds ?? [];

  async function read(userId: string): Promise<ProgressView> {
    const { rows } = await db.$client.query<ProgressRow>({
      name: "progress_and_completions_of_user",
      text: PROGRESS_OF_USER,
      values: [userId],
    });
    return viewOf(rows, outline);
  }

  const findTarget = (target: ProgressTarget) => findCourseTask(course, target);

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
    async record(user: SessionUser, target: ProgressTarget, status: RecordedStatus): Promise<ProgressView> {
      const day = findTarget(target);
      const required = STAFF_ROLES.includes(user.role)
        ? noTasks
        : (earlierTasks.get(`${target.chapterId}/${target.dayId}`) ?? noTasks);
      const { rows } = await db.$client.query<ProgressRow & { open: boolean | null }>({
        name: "record_progress_for_learner",
        text: RECORD_FOR_LEARNER,
        values: [
          user.id,
          target.chapterId,
          target.dayId,
          target.taskId,
          status,
          required.chapterIds,
          required.dayIds,
          required.taskIds,
          tasksOfDay(target.chapterId, target.dayId),
        ],
      });
      const view = viewOf(rows, outline);
      if (!rows.find((row) => row.chapter_id === null)?.open) {
        throw dayLockedError(outline, day, view.progress, target, view.completedDays);
      }
      if (taskStatus(view.progress, target.chapterId, target.dayId, target.taskId) !== "completed") {
        setStatus(view.progress, target, status);
      }
      return view;
    },

    /** Any user's progress and completed days, for staff. An unknown user is a 404. */
    async readFor(userId: string): Promise<ProgressView> {
      await requireAccount(db, userId);
      return read(userId);
    },

    /**
     * Staff set any status of a user's task (spec section 6): day locking is bypassed and progress
     * may move back; not-started removes the record. Completing a day's last task records the day
     * as completed; moving a completed task back removes that (the tutor says the day is not done,
     * so the days after it lock again unless its tasks are all completed). Nothing is written when
     * the status would not change. Answers the user's whole progress.
     */
    async setFor(userId: string, target: ProgressTarget, status: TaskStatus): Promise<ProgressView> {
      findTarget(target);
      if (status === "not-started") {
        await requireAccount(db, userId);
        await db.$client.query({
          name: "clear_progress_for_user",
          text: CLEAR_FOR_USER,
          values: [userId, target.chapterId, target.dayId, target.taskId],
        });
        return read(userId);
      }
      const { rows } = await unlessUserVanished(() =>
        db.$client.query<ProgressRow>({
          name: "set_progress_for_user",
          text: SET_FOR_USER,
          values: [
            userId,
            target.chapterId,
            target.dayId,
            target.taskId,
            status,
            tasksOfDay(target.chapterId, target.dayId),
          ],
        }),
      );
      const view = viewOf(rows, outline);
      setStatus(view.progress, target, status);
      return view;
    },

    /**
     * Removes every progress record of a user and the days they completed (the tutor's reset), and
     * says how many records there were.
     */
    async resetFor(userId: string): Promise<number> {
      await requireAccount(db, userId);
      const result = await db.$client.query({
        name: "reset_progress_for_user",
        text: RESET_FOR_USER,
        values: [userId],
      });
      return result.rowCount ?? 0;
    },
  };
}

export type ProgressService = ReturnType<typeof createProgressService>;
