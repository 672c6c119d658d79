// npm run bench — prints figures, asserts nothing. Starts the real server (a fresh embedded
// PostgreSQL unless DATABASE_URL is set) and measures, in one run and on the same database:
//   - time from process start to ready (cold: first start with initdb; warm: a restart)
//   - requests per second and latency of a bare route beside signed-in API reads and progress writes,
//     both a save that leaves the row as it is and one that changes the row on every request
//   - a raw upsert loop: the progress route's statement over `pg`, same concurrency and duration,
//     which is the ceiling an authenticated write is measured against (the goal: half of it or more)
//   - where the machine's time goes: CPU milliseconds per request of the server, of PostgreSQL and of
//     the load generator (this process), read from /proc around each row

import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import type { Given } from "#course/exercise-schema";
import { rightAnswer } from "#course/grading";
import { cardId, coursePhrases, REVIEW_SKILLS, reviewItem } from "#course/review-rules";
import { loadCourse } from "#server/course/content";
import { runningEmbeddedPostgres } from "#server/db/embedded";
import { freePort, httpClient, signUpAndIn, startServer, stopServer } from "./bench-server";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** The goal of the issue: authenticated writes at half the raw upsert rate or more. */
const GOAL_RATIO = 0.5;

type Status = "in-progress" | "completed";

interface Figures {
  title: string;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Requests that did not answer as expected (errors, timeouts, or a write that changed nothing). */
  failed: number;
  /** CPU milliseconds per request: the server's, PostgreSQL's (NaN on an external database) and this process's. */
  cpu: CpuSample;
}

interface CpuSample {
  server: number;
  postgres: number;
  client: number;
}

const CLOCK_TICK_MS = 10; // /proc counts CPU time in ticks of 1/100 s (USER_HZ) on Linux.

/** Fields of /proc/<pid>/stat after the command name, which may itself hold spaces: [0] is field 3 (state). */
function procStat(pid: number): string[] {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  return text.slice(text.lastIndexOf(") ") + 2).split(" ");
}

/** User + system CPU of a process in ms; with `reaped`, also that of the children it has waited for. */
function processCpuMs(pid: number, reaped = false): number {
  const fields = procStat(pid);
  const ticks = Number(fields[11]) + Number(fields[12]) + (reaped ? Number(fields[13]) + Number(fields[14]) : 0);
  return ticks * CLOCK_TICK_MS;
}

/** CPU of the PostgreSQL server: the postmaster, the backends it has reaped, and the ones still running. */
function postgresCpuMs(postmasterPid: number): number {
  let total = processCpuMs(postmasterPid, true);
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const fields = procStat(pid);
      if (Number(fields[1]) === postmasterPid) total += processCpuMs(pid);
    } catch {
      // The process ended between the listing and the read; its time is now the postmaster's.
    }
  }
  return total;
}

/** Reads the CPU counters; `perRequest` turns two readings into milliseconds per request. */
function cpuMeter(serverPid: number, postmasterPid: number | null) {
  const read = (): CpuSample => {
    const self = process.cpuUsage();
    return {
      server: processCpuMs(serverPid),
      postgres: postmasterPid === null ? Number.NaN : postgresCpuMs(postmasterPid),
      client: (self.user + self.system) / 1000,
    };
  };
  const perRequest = (before: CpuSample, after: CpuSample, requests: number): CpuSample => ({
    server: (after.server - before.server) / requests,
    postgres: (after.postgres - before.postgres) / requests,
    client: (after.client - before.client) / requests,
  });
  return { read, perRequest };
}

type CpuMeter = ReturnType<typeof cpuMeter>;
let meter: CpuMeter;

interface ProgressRow {
  userId: string;
  chapterId: string;
  dayId: string;
  taskId: string;
}

// The statements the progress service sends (src/server/modules/progress/progress.service.ts): the
// learner's save, which never moves a task back from completed, and the staff one, which may.
const UPSERT = `insert into task_progress (user_id, chapter_id, section_id, task_id, status)
  values ($1, $2, $3, $4, $5)
  on conflict (user_id, chapter_id, section_id, task_id)
  do update set status = excluded.status, updated_at = now()`;
const LEARNER_UPSERT = `${UPSERT}
  where task_progress.status is distinct from excluded.status and task_progress.status <> 'completed'`;
const STAFF_UPSERT = `${UPSERT}
  where task_progress.status is distinct from excluded.status`;

const flip = (status: Status): Status => (status === "in-progress" ? "completed" : "in-progress");

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function load(
  title: string,
  url: string,
  headers: Record<string, string> = {},
  request: { method?: "GET" | "PUT"; body?: string; requests?: autocannon.Request[] } = {},
  countFailed: () => number = () => 0,
): Promise<Figures> {
  const before = meter.read();
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers, ...request });
  const cpu = meter.perRequest(before, meter.read(), result.requests.total);
  return {
    title,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    failed: result.errors + result.timeouts + countFailed(),
    cpu,
  };
}

/**
 * Staff writes that change a row on every request: each request takes a row no other request has
 * in flight and sets the other status. The answer carries the learner's progress, so each 2xx is
 * checked to hold the new status: a write that changed nothing would count as failed.
 */
async function changingWrites(origin: string, rows: ProgressRow[], cookie: string): Promise<Figures> {
  const state = rows.map((row) => ({ row, status: "completed" as Status, busy: false }));
  let failed = 0;
  return load(
    "progress write, row changes (tutor PUT /api/users/…)",
    origin,
    { cookie, origin, "content-type": "application/json" },
    {
      requests: [
        {
          method: "PUT",
          setupRequest: (request, context) => {
            const slot = state.find((candidate) => !candidate.busy) ?? state[0]!;
            slot.busy = true;
            const status = flip(slot.status);
            Object.assign(context, { slot, status });
            const { userId, chapterId, dayId, taskId } = slot.row;
            return {
              ...request,
              path: `/api/users/${userId}/progress/${chapterId}/${dayId}/${taskId}`,
              body: JSON.stringify({ status }),
            };
          },
          onResponse: (code, body, context) => {
            const { slot, status } = context as { slot: (typeof state)[number]; status: Status };
            slot.busy = false;
            const { chapterId, dayId, taskId } = slot.row;
            const stored =
              code === 200
                ? (JSON.parse(body) as { progress: Record<string, Record<string, Record<string, string>>> }).progress[
                    chapterId
                  ]?.[dayId]?.[taskId]
                : undefined;
            if (stored === status) slot.status = status;
            else failed += 1;
          },
        },
      ],
    },
    () => failed,
  );
}

/**
 * Review answers (POST /api/review/answers), each logged and its card rebuilt from its log. Each
 * request is one learner's right answer to one of their day 1 cards, from a learner with no
 * request in flight (one learner's reviews take turns on the server, as one person's do), with a
 * new clientId. Each 200 must say "right": anything else counts as failed.
 */
async function reviewAnswers(
  origin: string,
  learners: { cookie: string }[],
  cards: { cardId: string; given: Given }[],
) {
  const state = learners.map((learner) => ({ learner, busy: false, next: 0 }));
  let failed = 0;
  return load(
    "review answer (POST /api/review/answers)",
    `${origin}/api/review/answers`,
    { origin, "content-type": "application/json" },
    {
      requests: [
        {
          method: "POST",
          setupRequest: (request, context) => {
            const slot = state.find((candidate) => !candidate.busy) ?? state[0]!;
            slot.busy = true;
            const card = cards[slot.next % cards.length]!;
            slot.next += 1;
            Object.assign(context, { slot });
            return {
              ...request,
              headers: { ...request.headers, cookie: slot.learner.cookie },
              body: JSON.stringify({ clientId: randomUUID(), ...card, durationMs: 4000 }),
            };
          },
          onResponse: (code, body, context) => {
            (context as { slot: (typeof state)[number] }).slot.busy = false;
            if (code !== 200 || (JSON.parse(body) as { result: string }).result !== "right") failed += 1;
          },
        },
      ],
    },
    () => failed,
  );
}

/**
 * The raw ceiling: CONNECTIONS clients each upserting their own row in a loop for DURATION_S, with
 * the same statement the route sends. `changing` alternates the status so every statement writes
 * the row; otherwise the status stays and the statement's WHERE skips the write, as in a repeated save.
 */
async function rawUpserts(databaseUrl: string, userId: string, changing: boolean): Promise<Figures> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONNECTIONS });
  const latencies: number[] = [];
  let failed = 0;
  let cpu: CpuSample;
  try {
    const rows = Array.from({ length: CONNECTIONS }, (_, index) => [userId, "bench-raw", "raw", `task-${index}`]);
    // Every row exists before the clock starts, as the HTTP rows do.
    for (const row of rows) await pool.query(STAFF_UPSERT, [...row, "in-progress"]);
    const before = meter.read();
    const deadline = performance.now() + DURATION_S * 1000;
    await Promise.all(
      rows.map(async (row) => {
        let status: Status = "in-progress";
        while (performance.now() < deadline) {
          if (changing) status = flip(status);
          const started = performance.now();
          const result = await pool.query(changing ? STAFF_UPSERT : LEARNER_UPSERT, [...row, status]);
          latencies.push(performance.now() - started);
          if (result.rowCount !== (changing ? 1 : 0)) failed += 1;
        }
      }),
    );
    cpu = meter.perRequest(before, meter.read(), latencies.length);
  } finally {
    await pool.end();
  }
  latencies.sort((a, b) => a - b);
  return {
    title: `raw upsert over pg, ${changing ? "row changes" : "row unchanged"}`,
    rps: Math.round(latencies.length / DURATION_S),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    non2xx: 0,
    failed,
    cpu,
  };
}

function printTable(header: string[], rows: (string | number)[][]) {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => String(row[column]).length)));
  for (const row of [header, ...rows]) {
    console.log(
      row
        .map((cell, column) =>
          column === 0 ? String(cell).padEnd(widths[0]!) : String(cell).padStart(widths[column]!),
        )
        .join("  "),
    );
  }
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-"));
const port = await freePort();
const origin = `http://localhost:${port}`;
try {
  const cold = await startServer(dataDir, port, "test");
  await stopServer(cold.child);
  const warm = await startServer(dataDir, port, "test");
  const databaseUrl = process.env.DATABASE_URL ?? (await runningEmbeddedPostgres(dataDir));
  if (!databaseUrl) throw new Error("The server's embedded PostgreSQL is not running.");
  const db = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const postmasterPid = process.env.DATABASE_URL
    ? null
    : Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
  meter = cpuMeter(warm.child.pid!, postmasterPid);

  const client = httpClient(port);
  const suffix = Date.now().toString(36);
  const account = (who: string) => ({
    email: `bench-${who}-${suffix}@example.com`,
    password: "kopi-susu-kurang-manis",
    firstName: "B",
    lastName: "M",
  });
  const learner = await signUpAndIn(client, account("learner"));
  // Staff rows: every task of the course, for as many learners as it takes to have two rows per
  // connection, so a request always finds a row no other request is writing.
  const course = loadCourse({ publicDir: null });
  const tasks = course.flatMap((chapter) =>
    chapter.days.flatMap((day) => day.tasks.map((task) => ({ chapterId: chapter.id, dayId: day.id, taskId: task.id }))),
  );
  const learnerIds: string[] = [];
  while (learnerIds.length * tasks.length < 2 * CONNECTIONS) {
    learnerIds.push((await signUpAndIn(client, account(`row-owner-${learnerIds.length}`))).id);
  }
  const staffRows = learnerIds.flatMap((userId) => tasks.map((task) => ({ userId, ...task })));
  const tutor = await signUpAndIn(client, account("tutor"));
  await db.query(`update "user" set role = 'Tutor' where id = $1`, [tutor.id]);
  client.close();
  const learnerWrite = "/api/progress/chapter-1/day-1/story:read-setting";
  // Reviewers: one per connection, each having started day 1's phrase cards, so each holds a card
  // per skill of day 1's phrases; every request answers one of them right.
  const phrases = coursePhrases(course);
  const dayOnePhrases = phrases.filter((phrase) => phrase.chapterId === "chapter-1" && phrase.dayId === "day-1");
  const reviewCards = dayOnePhrases.flatMap((phrase) =>
    REVIEW_SKILLS.map((skill) => ({
      cardId: cardId({ chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId: phrase.id, skill }),
      given: rightAnswer(reviewItem(phrase, skill, phrases)).answer,
    })),
  );
  const reviewerClient = httpClient(port);
  const reviewers = [];
  for (let index = 0; index < CONNECTIONS; index += 1) {
    const reviewer = await signUpAndIn(reviewerClient, account(`reviewer-${index}`));
    const met = await reviewerClient.request("PUT", "/api/progress/chapter-1/day-1/codebook:review-vocab", {
      cookie: reviewer.cookie,
      json: { status: "in-progress" },
    });
    if (met.status !== 200) throw new Error(`starting day 1's phrase cards: ${met.status} ${met.body}`);
    const round = await reviewerClient.request("GET", "/api/review", { cookie: reviewer.cookie });
    if (round.status !== 200) throw new Error(`reading the review round: ${round.status} ${round.body}`);
    reviewers.push(reviewer);
  }
  reviewerClient.close();

  const rows = [
    await load("bare route (GET /api/unknown → 404 JSON)", `${origin}/api/unknown`),
    await load("health check (GET /healthz, one SQL query)", `${origin}/healthz`),
    await load("signed-in read (GET /api/profile)", `${origin}/api/profile`, { cookie: learner.cookie }),
    await load("progress read (GET /api/progress)", `${origin}/api/progress`, { cookie: learner.cookie }),
    // The session, then one statement that reads the learner's progress (for the unlock rule) and
    // upserts. After the first request the status is unchanged, so the statement writes nothing:
    // the cost of the checks, which is what a repeated save pays.
    await load(
      "progress write, row unchanged (PUT /api/progress/…)",
      `${origin}${learnerWrite}`,
      { cookie: learner.cookie, origin, "content-type": "application/json" },
      { method: "PUT", body: JSON.stringify({ status: "in-progress" }) },
    ),
    // A learner's progress only moves forward, so a sustained stream of changing writes goes
    // through the staff route: the session, then one statement that upserts and reads the user's progress.
    await changingWrites(origin, staffRows, tutor.cookie),
    await load("review summary (GET /api/review/summary)", `${origin}/api/review/summary`, {
      cookie: reviewers[0]!.cookie,
    }),
    await reviewAnswers(origin, reviewers, reviewCards),
    await rawUpserts(databaseUrl, learnerIds[0]!, false),
    await rawUpserts(databaseUrl, learnerIds[0]!, true),
  ];
  await db.end();

  await stopServer(warm.child);

  console.log(
    `\nJalan benchmark — ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ` +
      `${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`,
  );
  console.log(`${CONNECTIONS} connections, ${DURATION_S} s per row; the server's pool holds 20 connections\n`);
  console.log(`start to ready: first start ${Math.round(cold.readyMs)} ms, restart ${Math.round(warm.readyMs)} ms\n`);
  printTable(
    ["route", "req/s", "p50 ms", "p99 ms", "non-2xx", "failed"],
    rows.map((row) => [row.title, row.rps, row.p50, row.p99, row.non2xx, row.failed]),
  );
  console.log("(failed: errors, timeouts, and changing writes whose answer did not hold the new status)");
  const [bare, health, signedIn, , unchanged, changing, summary, reviewed, rawUnchanged, rawChanging] = rows as [
    Figures,
    Figures,
    Figures,
    Figures,
    Figures,
    Figures,
    Figures,
    Figures,
    Figures,
    Figures,
  ];
  const ratio = (a: Figures, b: Figures) => (a.rps / b.rps).toFixed(3);
  console.log(`\nsigned-in read / bare route:                     ${ratio(signedIn, bare)}`);
  console.log(`progress write, unchanged / bare route:          ${ratio(unchanged, bare)}`);
  console.log(`progress write, row changes / bare route:        ${ratio(changing, bare)}`);
  console.log(`progress write, unchanged / raw upsert unchanged: ${ratio(unchanged, rawUnchanged)}`);
  console.log(`progress write, row changes / raw upsert changes: ${ratio(changing, rawChanging)}`);
  console.log(`bare route / raw upsert changes (no auth, no SQL): ${ratio(bare, rawChanging)}`);
  console.log(`review summary / bare route:                     ${ratio(summary, bare)}`);
  console.log(
    `review answer / bare route:                      ${ratio(reviewed, bare)} ` +
      `(p99 ${reviewed.p99} ms against the bare route's ${bare.p99} ms)`,
  );
  const met = changing.rps / rawChanging.rps >= GOAL_RATIO;
  console.log(
    `goal, authenticated writes ≥ ${GOAL_RATIO} × raw upserts (rows changing): ${met ? "MET" : "NOT MET"} ` +
      `(${ratio(changing, rawChanging)})`,
  );

  const ms = (value: number) => (Number.isNaN(value) ? "–" : value.toFixed(3));
  console.log(
    "\nWhere the machine's time goes, CPU ms per request (user + system, read from /proc; the load generator is this process):",
  );
  printTable(
    ["route", "server", "PostgreSQL", "load generator", "all"],
    rows.map(({ title, cpu }) => [
      title,
      ms(cpu.server),
      ms(cpu.postgres),
      ms(cpu.client),
      ms(cpu.server + cpu.postgres + cpu.client),
    ]),
  );
  // On a machine whose cores are all busy, requests per second go as 1 / CPU per request. An
  // authenticated write costs at least the bare route's CPU (HTTP, no auth, no SQL) plus the raw
  // upsert's PostgreSQL CPU; with the session read (no session cache: a role change must apply on
  // the very next request), at least the health check's (HTTP and one query) plus the upsert.
  const total = ({ cpu }: Figures) => cpu.server + cpu.postgres + cpu.client;
  if (!Number.isNaN(total(rawChanging))) {
    const oneStatement = total(bare) + rawChanging.cpu.postgres;
    const withSession = total(health) + rawChanging.cpu.postgres;
    const best = (floor: number) => (total(rawChanging) / floor).toFixed(3);
    console.log(
      `\nCPU ms per request, all processes: progress write (row changes) ${ms(total(changing))}, ` +
        `raw upsert ${ms(total(rawChanging))}. The goal needs a write at ≤ ${ms(total(rawChanging) / GOAL_RATIO)}.\n` +
        `Lower bounds: HTTP and the upsert alone ${ms(oneStatement)} (ratio ≤ ${best(oneStatement)}); ` +
        `HTTP, a session query and the upsert ${ms(withSession)} (ratio ≤ ${best(withSession)}).`,
    );
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
