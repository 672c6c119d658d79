import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startQueue } from "./queue";

/**
 * Two real processes work one queue (tests/queue-worker.ts); the one running the job is killed
 * with -9 mid-run. pg-boss finds the job lost once its expiry (2 s) passes and gives it to the
 * other process, which completes it: once, and only there.
 */
const url = process.env.TEST_DATABASE_URL!;
// One connection, whose end is awaited: a pool's end leaves its connections closing after it
// resolves, and the file's database is then dropped under them (an error nobody listens for).
const database = new pg.Client({ connectionString: url });
const children: ChildProcess[] = [];
let dir = "";

beforeAll(async () => {
  await database.connect();
  await database.query("create table queue_probe (key text not null, pid int not null, phase text not null)");
  dir = await mkdtemp(path.join(os.tmpdir(), "jalan-queue-crash-"));
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await database.end();
  await rm(dir, { recursive: true, force: true });
});

/** A worker process, once it says it works the queue. */
function worker(name: string, holdFile: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/queue-worker.ts", url, name, holdFile], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (String(chunk).includes("ready")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`the worker exited with ${code} before it was ready`)));
  });
}

async function until<T>(read: () => Promise<T | undefined>, what: string, deadlineMs = 30_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const probes = async (key: string) =>
  (
    await database.query<{ pid: number; phase: string }>(
      "select pid, phase from queue_probe where key = $1 order by phase, pid",
      [key],
    )
  ).rows;

describe("a job whose process dies mid-run", () => {
  it("is completed exactly once, by the other process", { timeout: 90_000 }, async () => {
    const name = `crash-probe-${randomUUID().slice(0, 8)}`;
    const holdFile = path.join(dir, "hold");
    await writeFile(holdFile, "");
    const [first, second] = await Promise.all([worker(name, holdFile), worker(name, holdFile)]);
    const sender = await startQueue({ url, logger: pino({ level: "silent" }) });
    const key = randomUUID();
    const id = (await sender.send(name, { key }))!;
    await sender.stop();

    const holder = await until(async () => (await probes(key)).find((row) => row.phase === "started")?.pid, "a start");
    const [killed, survivor] = holder === first.pid ? [first, second] : [second, first];
    const gone = new Promise((resolve) => killed.once("exit", resolve));
    killed.kill("SIGKILL");
    await gone;
    await rm(holdFile);

    const completed = await until(
      async () => (await probes(key)).find((row) => row.phase === "completed"),
      "the job completes on the other process",
    );
    const job = await until(async () => {
      const { rows } = await database.query<{ state: string; retry_count: number }>(
        "select state, retry_count from pgboss.job where name = $1 and id = $2",
        [name, id],
      );
      return rows[0]?.state === "completed" ? rows[0] : undefined;
    }, "pg-boss marks the job completed");

    expect(completed.pid).toBe(survivor.pid);
    const rows = await probes(key);
    expect(rows.filter((row) => row.phase === "completed")).toEqual([{ pid: survivor.pid, phase: "completed" }]);
    expect(rows.filter((row) => row.phase === "started").map((row) => row.pid)).toEqual(
      [killed.pid!, survivor.pid!].sort((a, b) => a - b),
    );
    expect(job).toEqual({ state: "completed", retry_count: 1 });

    const stopped = new Promise((resolve) => survivor.once("exit", resolve));
    survivor.kill("SIGTERM");
    expect(await stopped).toBe(0);
  });
});
