// npm run bench — prints figures, asserts nothing. Starts the real server (a fresh embedded
// PostgreSQL unless DATABASE_URL is set) and measures, in one run and on the same database:
//   - time from process start to ready (cold: first start with initdb; warm: a restart)
//   - requests per second and latency of a bare route beside signed-in API reads and progress writes,
//     both a save that leaves the row as it is and one that changes the row on every request
//   - a raw upsert loop: the progress route's statement over `pg`, same concurrency and duration,
//     which is the ceiling an authenticated write is measured against (the goal: half of it or more)
//   - a take's upload (a learner's recording of a line, multipart, read from its bytes and stored)
//   - where the machine's time goes: CPU milliseconds per request of the server, of PostgreSQL and of
//     the load generator (this process), read from /proc around each row

import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { reviewItem, rightReviewGiven } from "#course/review-items";
import { coursePhrases, REVIEW_SKILLS, servedCardId } from "#course/review-rules";
import { shadowingOf } from "#course/speaking";
import { loadCourse } from "#server/course/content";
import { runningEmbeddedPostgres } from "#server/db/embedded";
import { cpuMeter } from "./bench-cpu";
import {
  CONNECTIONS,
  changingWrites,
  DURATION_S,
  type Figures,
  load,
  rawUpserts,
  reviewAnswers,
  takeUploads,
} from "./bench-load";
import { freePort, httpClient, signUpAndIn, startServer, stopServer } from "./bench-server";
import { printTable } from "./print-table";

/** The goal of the issue: authenticated writes at half the raw upsert rate or more. */
const GOAL_RATIO = 0.5;
/** A review answer's goals: throughput against a changing progress write, and its p99. */
const REVIEW_GOAL_RATIO = 0.5;
const REVIEW_P99_GOAL_MS = 30;
/** A review summary's CPU (the server's and PostgreSQL's) per request. */
const SUMMARY_CPU_GOAL_MS = 1;
/** CPU ms (server + PostgreSQL) of a progress write, row unchanged, on the machine the two goals above were set on. */
const PROGRESS_WRITE_CPU_AT_GOAL = 0.88;

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
  const meter = cpuMeter(warm.child.pid!, postmasterPid);

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
      cardId: servedCardId({ chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId: phrase.id, skill }),
      given: rightReviewGiven(reviewItem(phrase, skill, phrases)),
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
  // Speakers: one per connection, each uploading takes of day 1's dialogue lines in turn.
  const speakerClient = httpClient(port);
  const speakers = [];
  for (let index = 0; index < CONNECTIONS; index += 1) {
    speakers.push(await signUpAndIn(speakerClient, account(`speaker-${index}`)));
  }
  speakerClient.close();
  const dayOne = course[0]!.days[0]!;
  const dialogueLines = shadowingOf(dayOne, "codebook:listen-shadow")!.lineIds;
  const take = readFileSync(path.resolve(import.meta.dirname, "../tests/fixtures/takes/chromium-2s.webm"));

  const rows = [
    await load(meter, "bare route (GET /api/unknown → 404 JSON)", `${origin}/api/unknown`),
    await load(meter, "health check (GET /healthz, one SQL query)", `${origin}/healthz`),
    await load(meter, "signed-in read (GET /api/profile)", `${origin}/api/profile`, { cookie: learner.cookie }),
    await load(meter, "progress read (GET /api/progress)", `${origin}/api/progress`, { cookie: learner.cookie }),
    // The session, then one statement that reads the learner's progress (for the unlock rule) and
    // upserts. After the first request the status is unchanged, so the statement writes nothing:
    // the cost of the checks, which is what a repeated save pays.
    await load(
      meter,
      "progress write, row unchanged (PUT /api/progress/…)",
      `${origin}${learnerWrite}`,
      { cookie: learner.cookie, origin, "content-type": "application/json" },
      { method: "PUT", body: JSON.stringify({ status: "in-progress" }) },
    ),
    // A learner's progress only moves forward, so a sustained stream of changing writes goes
    // through the staff route: the session, then one statement that upserts and reads the user's progress.
    await changingWrites(meter, origin, staffRows, tutor.cookie),
    await load(meter, "review summary (GET /api/review/summary)", `${origin}/api/review/summary`, {
      cookie: reviewers[0]!.cookie,
    }),
    await reviewAnswers(meter, origin, reviewers, reviewCards),
    await rawUpserts(meter, databaseUrl, learnerIds[0]!, false),
    await rawUpserts(meter, databaseUrl, learnerIds[0]!, true),
    await takeUploads(meter, origin, speakers, dialogueLines, take),
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
  const [bare, health, signedIn, , unchanged, changing, summary, reviewed, rawUnchanged, rawChanging, uploaded] =
    rows as [Figures, Figures, Figures, Figures, Figures, Figures, Figures, Figures, Figures, Figures, Figures];
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
  console.log(
    `take upload / bare route:                        ${ratio(uploaded, bare)} ` +
      `(${uploaded.rps} takes/s, ${((uploaded.rps * take.length) / 2 ** 20).toFixed(1)} MB/s; ` +
      `p99 ${uploaded.p99} ms against the bare route's ${bare.p99} ms)`,
  );
  const met = changing.rps / rawChanging.rps >= GOAL_RATIO;
  console.log(
    `goal, authenticated writes ≥ ${GOAL_RATIO} × raw upserts (rows changing): ${met ? "MET" : "NOT MET"} ` +
      `(${ratio(changing, rawChanging)})`,
  );

  // The review's goals: an answer at half a changing progress write's throughput or more, its p99
  // within REVIEW_P99_GOAL_MS at CONNECTIONS connections, and a summary within a CPU millisecond.
  const verdict = (ok: boolean) => (ok ? "MET" : "NOT MET");
  const answerRatio = reviewed.rps / changing.rps;
  console.log(
    `goal, review answer ≥ ${REVIEW_GOAL_RATIO} × progress write (row changes): ${verdict(answerRatio >= REVIEW_GOAL_RATIO)} ` +
      `(${answerRatio.toFixed(3)})`,
  );
  console.log(
    `goal, review answer p99 ≤ ${REVIEW_P99_GOAL_MS} ms at ${CONNECTIONS} connections: ` +
      `${verdict(reviewed.p99 <= REVIEW_P99_GOAL_MS)} (${reviewed.p99} ms)`,
  );
  const summaryCpu = summary.cpu.server + summary.cpu.postgres;
  console.log(
    `goal, review summary ≤ ${SUMMARY_CPU_GOAL_MS} CPU ms a request (server + PostgreSQL): ` +
      `${verdict(summaryCpu <= SUMMARY_CPU_GOAL_MS)} (${summaryCpu.toFixed(3)} ms)`,
  );
  // The two absolute goals were set on a machine where a progress write (row unchanged: the session
  // and one statement, the same two round trips as an answer or a summary) cost PROGRESS_WRITE_CPU_AT_GOAL
  // CPU ms. Beside them, the same figures measured against this run's progress writes.
  const unchangedCpu = unchanged.cpu.server + unchanged.cpu.postgres;
  console.log(
    `this machine: a progress write (row unchanged) costs ${unchangedCpu.toFixed(3)} CPU ms (server + PostgreSQL), ` +
      `${(unchangedCpu / PROGRESS_WRITE_CPU_AT_GOAL).toFixed(2)} × the machine the goals were set on; in this run ` +
      `the review summary costs ${(summaryCpu / unchangedCpu).toFixed(2)} × a progress write (row unchanged), and ` +
      `the review answer's p99 is ${(reviewed.p99 / changing.p99).toFixed(2)} × a progress write's (row changes, ${changing.p99} ms)`,
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
