// npm run bench (its queue part) — prints figures, asserts nothing. On a fresh embedded PostgreSQL
// (or DATABASE_URL), migrated as the server does (which installs the queue's tables), measures one
// job at a time:
//   - the baseline: a `select 1` round trip, and an insert of one row, on a plain pool;
//   - send: the time `queue.send` takes to store a job;
//   - latency: from send until the job's handler starts on this instance, for a job sent alone
//     (this instance's worker is woken at once) and for a job sent in a transaction (found by the
//     worker's next poll after the commit, every 2 s by default: one job after another, each
//     waits for a whole poll; sent at random times, half of one on average);
// each as p50/p95 and as a ratio to the baseline round trip measured in the same run.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { connectDatabase } from "#server/db/client";
import { startEmbeddedPostgres } from "#server/db/embedded";
import { migrateDatabase } from "#server/db/migrate";
import { createLogger } from "#server/logger";
import { startQueue } from "#server/queue/queue";
import { printTable } from "./print-table";

const JOBS = Number(process.env.BENCH_QUEUE_JOBS ?? 200);
const TRANSACTION_JOBS = Number(process.env.BENCH_QUEUE_TRANSACTION_JOBS ?? 20);

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

async function times(count: number, once: () => Promise<number>): Promise<number[]> {
  const measured: number[] = [];
  for (let index = 0; index < count; index += 1) measured.push(await once());
  return measured;
}

const logger = createLogger("warn");
const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-queue-"));
const embedded = process.env.DATABASE_URL ? null : await startEmbeddedPostgres(dataDir, logger);
const url = process.env.DATABASE_URL ?? embedded!.url;
try {
  await migrateDatabase(url);
  const database = connectDatabase(url, logger, { max: 2 });
  const { db, pool } = database;
  const queue = await startQueue({ url, logger });
  const name = `bench-${Date.now().toString(36)}`;
  let started: (at: number) => void = () => {};
  await queue.work(name, async () => started(performance.now()));
  const handlerStart = () => new Promise<number>((resolve) => (started = resolve));

  // A logged table, as the job table is: a temporary one skips the write-ahead log a commit waits for.
  await pool.query("create table bench_row (id serial primary key, data jsonb)");
  const roundTrip = await times(JOBS, async () => {
    const from = performance.now();
    await pool.query("select 1");
    return performance.now() - from;
  });
  const insert = await times(JOBS, async () => {
    const from = performance.now();
    await pool.query("insert into bench_row (data) values ($1)", [{ n: 1 }]);
    return performance.now() - from;
  });
  const sendOnly: number[] = [];
  const alone = await times(JOBS, async () => {
    const running = handlerStart();
    const from = performance.now();
    await queue.send(name, { n: 1 });
    sendOnly.push(performance.now() - from);
    return (await running) - from;
  });
  const inTransaction = await times(TRANSACTION_JOBS, async () => {
    const running = handlerStart();
    const from = performance.now();
    await db.transaction((tx) => queue.send(name, { n: 1 }, { q: tx }));
    return (await running) - from;
  });
  await queue.stop();
  await pool.query("drop table bench_row");
  await database.close();

  const base = percentile(roundTrip, 50);
  const row = (label: string, values: number[]) => [
    `${label} (${values.length})`,
    `${percentile(values, 50).toFixed(2)} ms`,
    `${percentile(values, 95).toFixed(2)} ms`,
    `${(percentile(values, 50) / base).toFixed(1)}x`,
  ];
  console.log(
    `\nQueue (pg-boss): ${os.cpus().length} cores, Node ${process.version}, embedded PostgreSQL unless DATABASE_URL\n`,
  );
  printTable(
    ["one at a time", "p50", "p95", "p50 / select 1"],
    [
      row("baseline: select 1", roundTrip),
      row("baseline: insert a row", insert),
      row("send a job", sendOnly),
      row("job latency: send → handler starts", alone),
      row("job latency, sent in a transaction (polled)", inTransaction),
    ],
    "  ",
  );
} finally {
  await embedded?.stop();
  await rm(dataDir, { recursive: true, force: true });
}
