import type { Job } from "#server/modules/module";

/**
 * The cron expression that runs a job every `everyMs`, when cron can say it exactly: a whole
 * number of minutes that divides an hour, a whole number of hours that divides a day, or a day.
 * Any other interval (under a minute, or 45 minutes, 5 hours) has none and runs in throttled slots
 * instead (queue.ts).
 */
export function cronOf(everyMs: number): string | null {
  if (everyMs <= 0 || everyMs % 60_000 !== 0) return null;
  const minutes = everyMs / 60_000;
  if (minutes === 1) return "* * * * *";
  if (minutes < 60) return 60 % minutes === 0 ? `*/${minutes} * * * *` : null;
  if (minutes % 60 !== 0) return null;
  const hours = minutes / 60;
  if (hours === 24) return "0 0 * * *";
  if (hours < 24 && 24 % hours === 0) return `0 */${hours} * * *`;
  return null;
}

/** A recurring job's slot in seconds: one run per slot across every instance. */
export function slotSeconds(everyMs: number): number {
  return Math.max(1, Math.round(everyMs / 1000));
}

/** Tries after a recurring job's first failure, unless it says otherwise. */
export const RECURRING_RETRY_LIMIT = 3;
/** Seconds before a failed run's first retry; each retry waits about twice the one before. */
export const RECURRING_RETRY_DELAY_SECONDS = 5;
/** How long a run may take before it counts as lost (its instance died) and another instance tries it. */
export const RECURRING_EXPIRE_SECONDS = 5 * 60;

/** Queue settings of a recurring job: its own where it gives them, the defaults above otherwise. */
export function recurringSettings(job: Job) {
  return {
    retryLimit: job.retryLimit ?? RECURRING_RETRY_LIMIT,
    retryDelaySeconds: RECURRING_RETRY_DELAY_SECONDS,
    expireInSeconds: job.expireInSeconds ?? RECURRING_EXPIRE_SECONDS,
    // A short job is fetched as often as it is due, up to pg-boss's default of every 2 s.
    pollingIntervalSeconds: Math.min(2, Math.max(0.5, job.everyMs / 1000)),
  };
}
