import PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { Queryable } from "#server/db/client";
import { LOCK_KEYS } from "#server/db/locks";
import type { Job } from "#server/modules/module";
import { QUEUE_SCHEMA } from "./install";
import { cronOf, recurringSettings, slotSeconds } from "./recurring";
import { executorOf } from "./within";

/** How a queue's jobs are tried: what `work` takes, and what a recurring job's queue gets (recurring.ts). */
export interface WorkSettings {
  /** Tries after the first failure; 3 unless given. Then the job stays failed, listed in /healthz?detail. */
  retryLimit?: number;
  /** Seconds before the first retry, about doubled for each next one (pg-boss's backoff, with jitter); 5 unless given. */
  retryDelaySeconds?: number;
  /**
   * Seconds a run may take. Past them the run counts as lost (its instance died, or it hangs): the
   * job is failed and, with tries left, given to any instance again. 300 unless given.
   */
  expireInSeconds?: number;
  /** How often this instance asks for the queue's next job when it has none; the queue's default unless given. */
  pollingIntervalSeconds?: number;
}

export interface SendOptions {
  /** The caller's transaction: the job is inserted by it, and exists only if it commits. */
  q?: Queryable;
  /** Seconds from now before the job may run. */
  startAfterSeconds?: number;
}

/** A job as its handler sees it. */
export interface QueuedJob {
  id: string;
  name: string;
}

/**
 * All background work, on PostgreSQL (pg-boss; docs/decisions/071-one-queue.md). A job is run by
 * one instance at a time, retried with backoff when its handler throws, given to another instance
 * when the one running it dies, and kept failed once its tries are used up. Delivery is at least
 * once: a handler must be safe to run again (a unique row, a `where not sent` update).
 */
export interface Queue {
  /** Registers this instance's handler of the jobs named `name` (and creates the queue). */
  work<T extends object>(
    name: string,
    handler: (data: T, job: QueuedJob) => Promise<unknown>,
    settings?: WorkSettings,
  ): Promise<void>;
  /** Sends a one-off job to a queue some instance works; answers its id. */
  send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string>;
  /** Runs each job every `everyMs`, once across all instances (recurring.ts has how). */
  recur(jobs: readonly Job[]): Promise<void>;
  /** Stops taking jobs, waits up to the stop timeout for the ones running, then closes its connections. */
  stop(): Promise<void>;
}

export interface QueueOptions {
  url: string;
  logger: Logger;
  /** How often an idle worker asks for its queue's next job; 2 s unless given. */
  pollingIntervalSeconds?: number;
  /** How often lost jobs are failed for a retry and old ones archived (once across instances); 30 s unless given. */
  maintenanceIntervalSeconds?: number;
  /** How long `stop` waits for running jobs before failing them for another instance; 10 s unless given. */
  stopTimeoutMs?: number;
}

const DEFAULT_RETRY_LIMIT = 3;
const DEFAULT_RETRY_DELAY_SECONDS = 5;
const DEFAULT_EXPIRE_SECONDS = 5 * 60;
/** Completed jobs are archived after this (their history, not their work); failed ones stay visible a week. */
const COMPLETED_KEPT_SECONDS = 60 * 60;
const FAILED_KEPT_SECONDS = 7 * 24 * 60 * 60;

interface QueueState {
  boss: PgBoss;
  log: Logger;
  pollingIntervalSeconds: number;
  stopTimeoutMs: number;
  /** This instance's worker of each queue it works. */
  workers: Map<string, string>;
  /** The recurring jobs run by cron schedules, and the timers of the others. */
  scheduled: Set<string>;
  timers: NodeJS.Timeout[];
}

/** This process's queue, on the database at `url` (whose migrations installed the queue's tables). */
export async function startQueue(options: QueueOptions): Promise<Queue> {
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const boss = new PgBoss({
    connectionString: options.url,
    schema: QUEUE_SCHEMA,
    application_name: "jalan-queue",
    max: 4,
    migrate: false,
    pollingIntervalSeconds,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
    archiveCompletedAfterSeconds: COMPLETED_KEPT_SECONDS,
    archiveFailedAfterSeconds: FAILED_KEPT_SECONDS,
    deleteAfterDays: 7,
  });
  const log = options.logger.child({ component: "queue" });
  // pg-boss reports a lost connection or a failed maintenance pass here; without a listener Node
  // would end the process.
  boss.on("error", (error) => log.warn({ err: error }, "queue error"));
  await boss.start();
  const state: QueueState = {
    boss,
    log,
    pollingIntervalSeconds,
    stopTimeoutMs: options.stopTimeoutMs ?? 10_000,
    workers: new Map(),
    scheduled: new Set(),
    timers: [],
  };
  return {
    work: (name, handler, settings) => work(state, name, handler, settings ?? {}, "standard"),
    send: (name, data, sendOptions) => send(state, name, data, sendOptions ?? {}),
    recur: (jobs) => recur(state, jobs),
    stop: () => stop(state),
  };
}

async function work<T extends object>(
  state: QueueState,
  name: string,
  handler: (data: T, job: QueuedJob) => Promise<unknown>,
  settings: WorkSettings,
  policy: "standard" | "stately",
): Promise<void> {
  const { boss, log } = state;
  if (state.workers.has(name)) throw new Error(`The queue "${name}" already has a handler on this instance.`);
  const queue = {
    name,
    policy,
    retryLimit: settings.retryLimit ?? DEFAULT_RETRY_LIMIT,
    retryDelay: settings.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS,
    retryBackoff: true,
    expireInSeconds: settings.expireInSeconds ?? DEFAULT_EXPIRE_SECONDS,
  };
  await createQueue(boss, queue);
  const pollingIntervalSeconds = settings.pollingIntervalSeconds ?? state.pollingIntervalSeconds;
  const worker = await boss.work<T>(name, { pollingIntervalSeconds }, async ([job]) => {
    if (!job) return;
    try {
      return await handler(job.data, { id: job.id, name });
    } catch (error) {
      log.error({ err: error, job: name, id: job.id }, `${name} failed`);
      throw error;
    }
  });
  state.workers.set(name, worker);
}

/**
 * Creates the queue unless it exists, or brings an existing one's settings up to this code's.
 * pg-boss makes each queue a partition of its job table, and two instances creating queues at once
 * can deadlock, so creations take turns on an advisory lock (held until the statement's transaction
 * ends); a queue made meanwhile by another is left as it is.
 */
async function createQueue(boss: PgBoss, queue: PgBoss.Queue & { name: string }) {
  const existing = await boss.getQueue(queue.name);
  if (existing) {
    const changed = (["policy", "retryLimit", "retryDelay", "retryBackoff", "expireInSeconds"] as const).some(
      (setting) => existing[setting] !== queue[setting],
    );
    if (changed) await boss.updateQueue(queue.name, queue);
    return;
  }
  const { name, ...options } = queue;
  await boss.getDb().executeSql(
    `with turn as (select pg_advisory_xact_lock(${LOCK_KEYS.queueCreation}))
       select ${QUEUE_SCHEMA}.create_queue($1, $2) from turn`,
    [name, options],
  );
}

async function send<T extends object>(
  state: QueueState,
  name: string,
  data: T,
  { q, startAfterSeconds }: SendOptions,
): Promise<string> {
  const id = await state.boss.send(name, data, { db: q ? executorOf(q) : undefined, startAfter: startAfterSeconds });
  // pg-boss inserts nothing, silently, for a queue it does not know.
  if (id === null) {
    throw new Error(`There is no queue named "${name}": register its handler with work() before sending to it.`);
  }
  // Sent outside a transaction, the job can be fetched at once; in one, only after the caller commits.
  if (!q) wake(state, name);
  return id;
}

/** Has this instance's worker of the queue, if it has one, look for a job now rather than at its next poll. */
function wake(state: QueueState, name: string) {
  const worker = state.workers.get(name);
  if (worker) state.boss.notifyWorker(worker);
}

/**
 * Each job becomes a queue of its own with the "stately" policy: at most one run waiting and one
 * running, across all instances, so runs never overlap. A job whose interval cron can say runs on a
 * pg-boss schedule (one instance sends it each time); the others are sent by every instance every
 * `everyMs` into throttled slots of that length, of which the database keeps one per slot.
 */
async function recur(state: QueueState, jobs: readonly Job[]): Promise<void> {
  const { boss } = state;
  for (const job of jobs) {
    const cron = cronOf(job.everyMs);
    // pg-boss keeps a throttled slot's job only while completed jobs are kept.
    if (!cron && slotSeconds(job.everyMs) > COMPLETED_KEPT_SECONDS) {
      throw new Error(
        `"${job.name}" runs every ${job.everyMs} ms: an interval over an hour must be whole hours dividing a day, or a day.`,
      );
    }
    await work(state, job.name, () => job.run(), recurringSettings(job), "stately");
    if (cron) {
      await boss.schedule(job.name, cron, {}, { tz: "UTC" });
      state.scheduled.add(job.name);
    } else {
      state.timers.push(throttled(state, job));
    }
  }
  // A job that no longer exists, or no longer runs on a schedule, must not be sent by its old one.
  for (const schedule of await boss.getSchedules()) {
    if (!state.scheduled.has(schedule.name)) await boss.unschedule(schedule.name);
  }
}

/** Sends the job into its slot every slot (a second at the least: sending more often would only be refused). */
function throttled(state: QueueState, job: Job): NodeJS.Timeout {
  const seconds = slotSeconds(job.everyMs);
  const timer = setInterval(() => {
    state.boss.sendThrottled(job.name, {}, {}, seconds, job.name).then(
      (id) => {
        if (id !== null) wake(state, job.name);
      },
      (error: unknown) => state.log.warn({ err: error, job: job.name }, `${job.name} not sent`),
    );
  }, seconds * 1000);
  timer.unref();
  return timer;
}

async function stop(state: QueueState): Promise<void> {
  for (const timer of state.timers) clearInterval(timer);
  state.timers = [];
  // Jobs still running at the timeout are failed, so another instance retries them. Without the
  // database they cannot be: their expiry gives them to another instance instead, and the shutdown
  // goes on.
  await state.boss
    .stop({ graceful: true, timeout: state.stopTimeoutMs, wait: true })
    .catch((error: unknown) => state.log.warn({ err: error }, "queue stopped without the database"));
}
