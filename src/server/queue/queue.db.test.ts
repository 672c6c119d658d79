import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { createTestApp } from "#tests/test-app";
import { type Queue, startQueue } from "./queue";

const t = await createTestApp();
const url = process.env.TEST_DATABASE_URL!;
const silent = pino({ level: "silent" });
const queues: Queue[] = [];
afterAll(async () => {
  await Promise.all(queues.map((queue) => queue.stop()));
});

/** A queue on this file's database that looks for work twice a second and for lost jobs every second. */
async function queue(stopTimeoutMs?: number): Promise<Queue> {
  const started = await startQueue({
    url,
    logger: silent,
    pollingIntervalSeconds: 0.5,
    maintenanceIntervalSeconds: 1,
    stopTimeoutMs,
  });
  queues.push(started);
  return started;
}

async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string, deadlineMs = 20_000) {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const jobsOf = async (name: string) =>
  (
    await t.db.execute<{ state: string; retry_count: number; data: { key?: string } }>(
      sql`select state, retry_count, data from pgboss.job where name = ${name} order by created_on`,
    )
  ).rows;

const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;

describe("send", () => {
  it("inserts a job sent in a caller's transaction with its rows: run once it commits, gone if it rolls back", async () => {
    const q = await queue();
    const name = unique("in-transaction");
    const seen: string[] = [];
    await q.work<{ key: string }>(name, async ({ key }) => {
      seen.push(key);
    });

    await t.db
      .transaction(async (tx) => {
        await q.send(name, { key: "rolled back" }, { q: tx });
        throw new Error("the caller changes its mind");
      })
      .catch(() => undefined);
    await t.db.transaction(async (tx) => {
      await q.send(name, { key: "committed" }, { q: tx });
    });

    await until(() => (seen.includes("committed") ? true : undefined), "the committed job runs");
    expect(seen).toEqual(["committed"]);
    expect((await jobsOf(name)).map((job) => job.data.key)).toEqual(["committed"]);
  });

  it("refuses a job for a queue nothing works, and the caller's transaction with it", async () => {
    const q = await queue();
    const name = unique("unknown");
    await expect(q.send(name, {})).rejects.toThrow(`There is no queue named "${name}"`);
    await expect(t.db.transaction((tx) => q.send(name, {}, { q: tx }))).rejects.toThrow("There is no queue named");
  });
});

describe("work", () => {
  it("creates the queue once, and a later start with other settings brings them up to date", async () => {
    const name = unique("settings");
    const settings = async () =>
      (
        await t.db.execute<{ retry_limit: number; expire_seconds: number }>(
          sql`select retry_limit, expire_seconds from pgboss.queue where name = ${name}`,
        )
      ).rows;
    await (await queue()).work(name, async () => undefined, { retryLimit: 1, expireInSeconds: 60 });
    expect(await settings()).toEqual([{ retry_limit: 1, expire_seconds: 60 }]);

    await (await queue()).work(name, async () => undefined, { retryLimit: 4 });
    expect(await settings()).toEqual([{ retry_limit: 4, expire_seconds: 300 }]);
  });
});

describe("a failing job", () => {
  it("is retried with growing pauses, then kept failed and listed in /healthz?detail", async () => {
    const q = await queue();
    const name = unique("failing");
    const tries: number[] = [];
    await q.work(
      name,
      async () => {
        tries.push(Date.now());
        throw new Error("the SMTP server is down");
      },
      { retryLimit: 2, retryDelaySeconds: 1 },
    );
    await q.send(name, {});

    const [job] = await until(async () => {
      const jobs = await jobsOf(name);
      return jobs[0]?.state === "failed" ? jobs : undefined;
    }, "the job has used up its tries");
    expect(job).toMatchObject({ state: "failed", retry_count: 2 });
    expect(tries).toHaveLength(3);
    // pg-boss's backoff: the first retry waits 1 to 2 delays, the second 2 to 4.
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(900);
    expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(1900);

    const detail = await t.request("/healthz?detail");
    expect(detail.status).toBe(200);
    const body = (await detail.json()) as { status: string; jobs: Array<{ name: string }> };
    expect(body.status).toBe("ok");
    expect(body.jobs.find((line) => line.name === name)).toEqual({
      name,
      queued: 0,
      active: 0,
      failed: 1,
      oldestQueuedSeconds: 0,
    });
  });

  it("counts waiting jobs and the age of the oldest in /healthz?detail", async () => {
    const q = await queue();
    const name = unique("waiting");
    await q.work(name, async () => undefined);
    await q.send(name, {}, { startAfterSeconds: 600 });
    await q.send(name, {}, { startAfterSeconds: 600 });
    await t.db.execute(sql`update pgboss.job set created_on = now() - interval '90 seconds' where name = ${name}`);

    const body = (await (await t.request("/healthz?detail")).json()) as { jobs: Array<{ name: string }> };
    expect(body.jobs.find((line) => line.name === name)).toEqual({
      name,
      queued: 2,
      active: 0,
      failed: 0,
      oldestQueuedSeconds: expect.toSatisfy((seconds: number) => seconds >= 90 && seconds < 120),
    });
  });
});

describe("recurring jobs", () => {
  it("run once per slot across two instances, never two at a time", async () => {
    const [a, b] = [await queue(), await queue()];
    const name = unique("tick");
    const runs: Array<{ by: string; from: number; to: number }> = [];
    const job = (by: string) => ({
      name,
      everyMs: 1000,
      run: async () => {
        const from = Date.now();
        await new Promise((resolve) => setTimeout(resolve, 300));
        runs.push({ by, from, to: Date.now() });
      },
    });
    const started = Date.now();
    await a.recur([job("a")]);
    await b.recur([job("b")]);
    await until(() => (runs.length >= 5 ? true : undefined), "five runs");
    const elapsedSeconds = (Date.now() - started) / 1000;

    // Both instances send every second: without the queue there would be about two runs a second.
    expect(runs.length).toBeLessThanOrEqual(Math.ceil(elapsedSeconds) + 1);
    const sorted = [...runs].sort((x, y) => x.from - y.from);
    for (let index = 1; index < sorted.length; index += 1) {
      expect(sorted[index]!.from).toBeGreaterThanOrEqual(sorted[index - 1]!.to);
    }
    // Stopped, each instance waits for its run in progress: every run is one completed job.
    await Promise.all([a.stop(), b.stop()]);
    const completed = (await jobsOf(name)).filter((row) => row.state === "completed");
    expect(completed).toHaveLength(runs.length);
  });

  it("runs an interval of whole minutes on a pg-boss schedule, and drops the schedule of a job no longer declared", async () => {
    const [a, b] = [await queue(), await queue()];
    const name = unique("every-five-minutes");
    await a.recur([{ name, everyMs: 5 * 60_000, run: async () => undefined }]);
    const schedules = async () =>
      (await t.db.execute<{ cron: string }>(sql`select cron from pgboss.schedule where name = ${name}`)).rows;
    expect(await schedules()).toEqual([{ cron: "*/5 * * * *" }]);

    await b.recur([]);
    expect(await schedules()).toEqual([]);
  });

  it("refuses an interval over an hour that cron cannot say, before it makes its queue", async () => {
    const q = await queue();
    const name = unique("every-five-hours");
    await expect(q.recur([{ name, everyMs: 5 * 60 * 60_000, run: async () => undefined }])).rejects.toThrow(
      `"${name}" runs every 18000000 ms: an interval over an hour must be whole hours dividing a day, or a day.`,
    );
    expect((await t.db.execute(sql`select 1 from pgboss.queue where name = ${name}`)).rows).toEqual([]);
  });

  it("refuses two jobs of one name on one instance", async () => {
    const q = await queue();
    const name = unique("twice");
    const job = { name, everyMs: 1000, run: async () => undefined };
    await expect(q.recur([job, job])).rejects.toThrow(`The queue "${name}" already has a handler on this instance.`);
  });
});

describe("stop", () => {
  it("waits for a job in progress to finish, and leaves one that outlasts the wait for another instance", async () => {
    const q = await queue(1000);
    const [quick, slow] = [unique("quick"), unique("slow")];
    const started = new Set<string>();
    let finished = false;
    await q.work(quick, async () => {
      started.add(quick);
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished = true;
    });
    await q.work(slow, async () => {
      started.add(slow);
      await new Promise((resolve) => setTimeout(resolve, 60_000).unref());
    });
    await q.send(quick, {});
    await q.send(slow, {});
    await until(() => (started.size === 2 ? true : undefined), "both jobs run");

    await q.stop();
    expect(finished).toBe(true);
    expect((await jobsOf(quick)).map((job) => job.state)).toEqual(["completed"]);
    // Failed with tries left: back in the queue for any instance.
    expect((await jobsOf(slow)).map((job) => job.state)).toEqual(["retry"]);
  });
});
