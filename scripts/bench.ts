// npm run bench — prints figures, asserts nothing. Starts the real server (a fresh embedded
// PostgreSQL unless DATABASE_URL is set) and measures, in one run and on the same database:
//   - time from process start to ready (cold: first start with initdb; warm: a restart)
//   - requests per second and latency of a bare route beside signed-in API reads and progress writes,
//     both a save that leaves the row as it is and one that changes the row on every request
//   - a raw upsert loop: the progress route's statement over `pg`, same concurrency and duration,
//     which is the ceiling an authenticated write is measured against (the goal: half of it or more)
//   - where a write's time goes: the app in this process, one request at a time, with timers around
//     Better Auth's session check and every SQL query
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { createApp } from "../src/server/app";
import { createAuth } from "../src/server/auth/auth";
import { loadCourse } from "../src/server/course/content";
import { connectDatabase } from "../src/server/db/client";
import { runningEmbeddedPostgres } from "../src/server/db/embedded";
import { loadEnv } from "../src/server/env";
import { createLogger } from "../src/server/logger";
import { createMailer } from "../src/server/mail/mailer";
import { createLocalStorage } from "../src/server/storage/storage";
import { freePort, httpClient, signUpAndIn, startServer, stopServer } from "./bench-server";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
/** Requests per variant in the in-process profile (one at a time, after a warm-up). */
const PROFILE_REQUESTS = Number(process.env.BENCH_PROFILE_REQUESTS ?? 300);
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
}

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
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers, ...request });
  return {
    title,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    failed: result.errors + result.timeouts + countFailed(),
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
 * The raw ceiling: CONNECTIONS clients each upserting their own row in a loop for DURATION_S, with
 * the same statement the route sends. `changing` alternates the status so every statement writes
 * the row; otherwise the status stays and the statement's WHERE skips the write, as in a repeated save.
 */
async function rawUpserts(databaseUrl: string, userId: string, changing: boolean): Promise<Figures> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: CONNECTIONS });
  const latencies: number[] = [];
  let failed = 0;
  try {
    const rows = Array.from({ length: CONNECTIONS }, (_, index) => [userId, "bench-raw", "raw", `task-${index}`]);
    // Every row exists before the clock starts, as the HTTP rows do.
    for (const row of rows) await pool.query(STAFF_UPSERT, [...row, "in-progress"]);
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
  };
}

interface ProfileFigures {
  title: string;
  totalMs: number;
  cpuMs: number;
  sessionMs: number;
  sessionCpuMs: number;
  sessionQueries: number;
  handlerQueries: number;
  sqlMs: number;
}

/**
 * The app in this process on the bench's database and secret, requests one at a time through
 * app.request (no HTTP parsing), with timers around Better Auth's getSession and every query the
 * pool runs. Wall time, CPU time of this process, and query counts are averaged per request.
 */
async function profileWrites(
  dataDir: string,
  databaseUrl: string,
  publicUrl: string,
  learner: { cookie: string; path: string },
  staff: { cookie: string; paths: string[] },
): Promise<ProfileFigures[]> {
  const env = loadEnv({ NODE_ENV: "test", DATA_DIR: dataDir, PUBLIC_URL: publicUrl, DATABASE_URL: databaseUrl });
  const logger = createLogger("silent");
  const database = connectDatabase(databaseUrl, logger);
  const counters = { queries: 0, sqlMs: 0, sessionMs: 0, sessionCpuMs: 0, sessionQueries: 0 };
  const query = database.pool.query.bind(database.pool) as (...args: unknown[]) => Promise<unknown>;
  (database.pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args) => {
    const started = performance.now();
    try {
      return await query(...args);
    } finally {
      counters.queries += 1;
      counters.sqlMs += performance.now() - started;
    }
  };
  const mailer = createMailer({ from: env.MAIL_FROM, dataDir, logger });
  const auth = createAuth({ db: database.db, env, mailer, logger });
  const getSession = auth.api.getSession;
  auth.api.getSession = (async (...args: Parameters<typeof getSession>) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const queriesBefore = counters.queries;
    try {
      return await getSession(...args);
    } finally {
      const { user, system } = process.cpuUsage(cpu);
      counters.sessionCpuMs += (user + system) / 1000;
      counters.sessionMs += performance.now() - started;
      counters.sessionQueries += counters.queries - queriesBefore;
    }
  }) as typeof getSession;
  const app = createApp({
    db: database.db,
    pool: database.pool,
    auth,
    storage: createLocalStorage(path.join(dataDir, "uploads")),
    mailer,
    logger,
    publicUrl: env.PUBLIC_URL,
    authSecret: env.AUTH_SECRET,
    course: loadCourse({ publicDir: null }),
  });

  const put = (target: string, cookie: string, status: Status) =>
    app.request(target, {
      method: "PUT",
      headers: { cookie, origin: publicUrl, "content-type": "application/json" },
      body: JSON.stringify({ status }),
    });

  // One count across warm-up and measurement, so the staff rows keep alternating.
  let sent = 0;
  async function measure(
    title: string,
    send: (index: number) => Response | Promise<Response>,
    expected = 200,
  ): Promise<ProfileFigures> {
    for (let index = 0; index < 50; index += 1) await (await send(sent++)).arrayBuffer();
    Object.assign(counters, { queries: 0, sqlMs: 0, sessionMs: 0, sessionCpuMs: 0, sessionQueries: 0 });
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let index = 0; index < PROFILE_REQUESTS; index += 1) {
      const response = await send(sent++);
      await response.arrayBuffer();
      if (response.status !== expected) throw new Error(`${title}: answered ${response.status}`);
    }
    const totalMs = performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    const per = (value: number) => Math.round((value / PROFILE_REQUESTS) * 100) / 100;
    return {
      title,
      totalMs: per(totalMs),
      cpuMs: per((user + system) / 1000),
      sessionMs: per(counters.sessionMs),
      sessionCpuMs: per(counters.sessionCpuMs),
      sessionQueries: per(counters.sessionQueries),
      handlerQueries: per(counters.queries - counters.sessionQueries),
      sqlMs: per(counters.sqlMs),
    };
  }

  try {
    // Each staff path is written in turn, so every status differs from the one before on that row.
    const statusOf = (index: number): Status =>
      Math.floor(index / staff.paths.length) % 2 === 0 ? "in-progress" : "completed";
    return [
      await measure("bare route (GET /api/unknown)", () => app.request("/api/unknown"), 404),
      await measure("progress write, row unchanged", () => put(learner.path, learner.cookie, "in-progress")),
      await measure("progress write, row changes (tutor)", (index) =>
        put(staff.paths[index % staff.paths.length]!, staff.cookie, statusOf(index)),
      ),
    ];
  } finally {
    await database.close();
  }
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
  const tasks = loadCourse({ publicDir: null }).flatMap((chapter) =>
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

  const rows = [
    await load("bare route (GET /api/unknown → 404 JSON)", `${origin}/api/unknown`),
    await load("health check (GET /healthz, one SQL query)", `${origin}/healthz`),
    await load("signed-in read (GET /api/profile)", `${origin}/api/profile`, { cookie: learner.cookie }),
    await load("progress read (GET /api/progress)", `${origin}/api/progress`, { cookie: learner.cookie }),
    // Session, the learner's progress (for the unlock rule), then the upsert. After the first
    // request the status is unchanged, so the upsert's WHERE skips the row write: the cost of the
    // checks and the statement, which is what a repeated save pays.
    await load(
      "progress write, row unchanged (PUT /api/progress/…)",
      `${origin}${learnerWrite}`,
      { cookie: learner.cookie, origin, "content-type": "application/json" },
      { method: "PUT", body: JSON.stringify({ status: "in-progress" }) },
    ),
    // A learner's progress only moves forward, so a sustained stream of changing writes goes
    // through the staff route: session, the user check, the upsert, then the user's progress.
    await changingWrites(origin, staffRows, tutor.cookie),
    await rawUpserts(databaseUrl, learnerIds[0]!, false),
    await rawUpserts(databaseUrl, learnerIds[0]!, true),
  ];
  await db.end();

  const profile = await profileWrites(
    dataDir,
    databaseUrl,
    origin,
    { cookie: learner.cookie, path: learnerWrite },
    {
      cookie: tutor.cookie,
      paths: staffRows
        .slice(0, 2 * CONNECTIONS)
        .map((row) => `/api/users/${row.userId}/progress/${row.chapterId}/${row.dayId}/${row.taskId}`),
    },
  );
  await stopServer(warm.child);

  console.log(
    `\nJalan benchmark — ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ` +
      `${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`,
  );
  console.log(`${CONNECTIONS} connections, ${DURATION_S} s per row; the server's pool holds 10 connections\n`);
  console.log(`start to ready: first start ${Math.round(cold.readyMs)} ms, restart ${Math.round(warm.readyMs)} ms\n`);
  printTable(
    ["route", "req/s", "p50 ms", "p99 ms", "non-2xx", "failed"],
    rows.map((row) => [row.title, row.rps, row.p50, row.p99, row.non2xx, row.failed]),
  );
  console.log("(failed: errors, timeouts, and changing writes whose answer did not hold the new status)");
  const [bare, , signedIn, , unchanged, changing, rawUnchanged, rawChanging] = rows as [
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
  const met = changing.rps / rawChanging.rps >= GOAL_RATIO;
  console.log(
    `goal, authenticated writes ≥ ${GOAL_RATIO} × raw upserts (rows changing): ${met ? "MET" : "NOT MET"} ` +
      `(${ratio(changing, rawChanging)})`,
  );

  console.log(
    `\nWhere a write's time goes (the app in process, one request at a time, ${PROFILE_REQUESTS} requests, ` +
      "no HTTP parsing; ms and queries per request):",
  );
  printTable(
    ["request", "wall", "CPU", "SQL wall", "session wall", "session CPU", "session SQL", "other SQL"],
    profile.map((row) => [
      row.title,
      row.totalMs,
      row.cpuMs,
      row.sqlMs,
      row.sessionMs,
      row.sessionCpuMs,
      row.sessionQueries,
      row.handlerQueries,
    ]),
  );
  console.log(
    "(session: Better Auth's getSession, its SQL included; CPU: this process, user + system, PostgreSQL's not counted)",
  );
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
