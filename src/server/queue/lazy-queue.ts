import type { Logger } from "pino";
import type { Worker } from "#server/modules/module";
import { type Queue, type SendOptions, startQueue } from "./queue";

/**
 * A queue that starts on its first `send`, then works `workers()` on this process: for an app that
 * seldom sends a job (the tests' apps, the benches), so that those that never do start no pg-boss.
 * The server itself starts its queue before anything else (services.ts).
 */
export function createLazyQueue(options: {
  url: string;
  logger: Logger;
  workers: () => readonly Worker[];
  pollingIntervalSeconds?: number;
}) {
  let started: Promise<Queue> | undefined;
  const start = () => {
    started ??= (async () => {
      const queue = await startQueue({
        url: options.url,
        logger: options.logger,
        pollingIntervalSeconds: options.pollingIntervalSeconds,
      });
      for (const worker of options.workers()) await queue.work(worker.name, worker.run as never, worker.settings);
      return queue;
    })();
    return started;
  };
  return {
    async send<T extends object>(name: string, data: T, sendOptions?: SendOptions): Promise<string> {
      return (await start()).send(name, data, sendOptions);
    },
    /** Whether a job was ever sent (the queue started). */
    get started() {
      return started !== undefined;
    },
    async stop(): Promise<void> {
      if (started) await (await started).stop();
    },
  };
}
