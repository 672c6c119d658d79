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

/**
 * Queue settings of a recurring job: the tries and expiry it gives, if it does (the queue's defaults
 * otherwise), and a worker that asks for it as often as it is due, up to pg-boss's every 2 s.
 */
export function recurringSettings(job: Job) {
  return {
    retryLimit: job.retryLimit,
    expireInSeconds: job.expireInSeconds,
    pollingIntervalSeconds: Math.min(2, Math.max(0.5, job.everyMs / 1000)),
  };
}
