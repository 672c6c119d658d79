import { and, eq, ne, sql } from "drizzle-orm";
import { z } from "zod";
import { type Chapter, courseOutline, findChapter } from "../../../course/course";
import {
  firstIncompleteDayBefore,
  type OutlineDay,
  type ProgressMap,
  taskStatus,
} from "../../../course/progress-rules";
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

interface ProgressRow {
  chapter_id: string;
  section_id: string;
  task_id: string;
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

/**
 * A learner's save in one statement: it reads their progress, checks that every task of the days
 * before the target day is completed ($6–$8 list them), and upserts the task only then. The answer
 * is the progress as it was before the write, and whether the day was open; PostgreSQL runs the
 * insert even though the final select does not read it. A save that would change nothing (the
 * task already has that status, or is completed) sends no insert at all, so it takes no row lock
 * and commits nothing: learners repeat such saves whenever they open a day. The upsert's own
 * WHERE still holds when a concurrent request wrote in between: a task never moves back from
 * completed (docs/decisions/011-progress-moves-forward.md), and an unchanged status is not
 * rewritten, so updated_at keeps the time of the last change.
 */
const RECORD_FOR_LEARNER = `
  with prior as (
    select chapter_id, section_id, task_id, status from task_progress
    where user_id = $1 and status <> 'not-started'
  ),
  gate as (
    select count(*) = cardinality($6::text[]) as open from prior
    where status = 'completed'
      and (chapter_id, section_id, task_id) in (select * from unnest($6::text[], $7::text[], $8::text[]))
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
  )
  select chapter_id, section_id, task_id, status, (select open from gate) as open from prior
  union all
  select null, null, null, null, (select open from gate)`;

/**
 * Staff set a task of any user in one statement: the upsert (any status, locking bypassed), and the
 * user's progress as it was before it. A user that does not exist fails the foreign key: a 404.
 */
const SET_FOR_USER = `
  with written as (
    insert into task_progress (user_id, chapter_id, section_id, task_id, status)
    values ($1, $2, $3, $4, $5)
    on conflict (user_id, chapter_id, section_id, task_id)
    do update set status = excluded.status, updated_at = now()
    where task_progress.status is distinct from excluded.status
  )
  select chapter_id, section_id, task_id, status from task_progress
  where user_id = $1 and status <> 'not-started'`;

function progressOf(rows: readonly ProgressRow[]): ProgressMap {
  const progress: ProgressMap = {};
  for (const row of rows) {
    if (row.chapter_id !== null) {
      setStatus(progress, { chapterId: row.chapter_id, dayId: row.section_id, taskId: row.task_id }, row.status);
    }
  }
  return progress;
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

  const progressOfUser = db
    .select({
      chapterId: taskProgress.chapterId,
      dayId: taskProgress.sectionId,
      taskId: taskProgress.taskId,
      status: taskProgress.status,
    })
    .from(taskProgress)
    .where(and(eq(taskProgress.userId, sql.placeholder("userId")), ne(taskProgress.status, "not-started")))
    .prepare("progress_of_user");

  async function read(userId: string): Promise<ProgressMap> {
    const progress: ProgressMap = {};
    for (const row of await progressOfUser.execute({ userId })) setStatus(progress, row, row.status);
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
     * task stays completed. Staff recording their own progress are not held by locking.
     */
    async record(user: SessionUser, target: ProgressTarget, status: RecordedStatus): Promise<ProgressMap> {
      const day = findTarget(target, user);
      const required = STAFF_ROLES.includes(user.role)
        ? noTasks
        : (earlierTasks.get(`${target.chapterId}/${target.dayId}`) ?? noTasks);
      const { rows } = await db.$client.query<ProgressRow & { open: boolean }>({
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
        ],
      });
      const progress = progressOf(rows);
      if (!rows[0]?.open) {
        const blocking = firstIncompleteDayBefore(outline, progress, target);
        throw dayLocked(
          blocking
            ? `Day ${day.number} is locked. Finish Day ${blocking.number} first.`
            : `Day ${day.number} is locked.`,
        );
      }
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
      if (status === "not-started") {
        await requireAccount(db, userId);
        await db
          .delete(taskProgress)
          .where(
            and(
              eq(taskProgress.userId, userId),
              eq(taskProgress.chapterId, target.chapterId),
              eq(taskProgress.sectionId, target.dayId),
              eq(taskProgress.taskId, target.taskId),
            ),
          );
        return read(userId);
      }
      const { rows } = await unlessUserVanished(() =>
        db.$client.query<ProgressRow>({
          name: "set_progress_for_user",
          text: SET_FOR_USER,
          values: [userId, target.chapterId, target.dayId, target.taskId, status],
        }),
      );
      const progress = progressOf(rows);
      setStatus(progress, target, status);
      return progress;
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
