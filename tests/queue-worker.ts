// A process working one queue for the queue's crash test (src/server/queue/crash.db.test.ts):
//   tsx tests/queue-worker.ts <database url> <queue name> <hold file>
// Its handler writes a "started" row to queue_probe, waits while the hold file exists, then writes
// a "completed" row; jobs are lost after 2 s, and lost jobs are looked for every second. It prints
// "ready" once it works the queue, and stops cleanly on SIGTERM.
import { existsSync } from "node:fs";
import pg from "pg";
import pino from "pino";
import { startQueue } from "#server/queue/queue";

const [url, name, holdFile] = process.argv.slice(2) as [string, string, string];
const pool = new pg.Pool({ connectionString: url, max: 2 });
const queue = await startQueue({
  url,
  logger: pino({ level: "silent" }),
  pollingIntervalSeconds: 0.5,
  maintenanceIntervalSeconds: 1,
});
const record = (key: string, phase: string) =>
  pool.query("insert into queue_probe (key, pid, phase) values ($1, $2, $3)", [key, process.pid, phase]);
await queue.work<{ key: string }>(
  name,
  async ({ key }) => {
    await record(key, "started");
    while (existsSync(holdFile)) await new Promise((resolve) => setTimeout(resolve, 50));
    await record(key, "completed");
  },
  { expireInSeconds: 2, retryLimit: 2, retryDelaySeconds: 1, pollingIntervalSeconds: 0.5 },
);
process.stdout.write("ready\n");
process.once("SIGTERM", () => {
  void queue
    .stop()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
