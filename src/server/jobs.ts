import type { Logger } from "pino";
import type { Job } from "#server/modules/module";

/**
 * Runs each module's jobs every `everyMs` until stopped. A run never overlaps the job's previous
 * one; an error is logged and the next run tries again. The returned function stops the timers and
 * waits for the runs in progress.
 */
export function startJobs(jobs: readonly Job[], logger: Logger): () => Promise<void> {
  const stops = jobs.map((job) => {
    let running: Promise<unknown> | null = null;
    const tick = () => {
      if (running) return;
      running = job
        .run()
        .catch((error: unknown) => logger.error({ err: error, job: job.name }, `${job.name} failed`))
        .finally(() => {
          running = null;
        });
    };
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running;
    };
  });
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
