import type { TaskStatus } from "#course/progress-status";

// The statements the progress repository (progress.repository.ts) sends as SQL text, with the
// shapes they take and answer. Plain strings: this file queries nothing and imports no tables.

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
export const RECORD_FOR_LEARNER = `
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
export const SET_FOR_USER = `
  with target as (
    select role::text as role, role::text = any($7::text[]) as open from person where id = $1
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
export const STARTED_TASKS = `(
  select coalesce(json_agg(json_build_object('chapterId', chapter_id, 'dayId', section_id, 'taskId', task_id)), '[]'::json)
  from task_progress where user_id = $1 and status <> 'not-started')`;

/** A user's progress and completed days, in one statement. */
export const PROGRESS_OF_USER = `
  select chapter_id, section_id, task_id, status from task_progress
  where user_id = $1 and status <> 'not-started'
  union all
  select chapter_id, day_id, null, null from day_completion where user_id = $1`;

/**
 * Staff set a task not-started: its record goes, and so does its day's completion when the task was
 * completed (the tutor says the day is not done).
 */
export const CLEAR_FOR_USER = `
  with removed as (
    delete from task_progress
    where user_id = $1 and chapter_id = $2 and section_id = $3 and task_id = $4
    returning status
  )
  delete from day_completion
  where user_id = $1 and chapter_id = $2 and day_id = $3 and exists (select from removed where status = 'completed')`;

/** The tutor's reset: every progress record of the user and every day they completed. Counts the records. */
export const RESET_FOR_USER = `
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
export const BACKFILL_DAY_COMPLETIONS = `
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
export const SELF_STUDY_FINISHED = `
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
