// npm run test:load — no acknowledged write is lost under load (docs/decisions/020-load-and-crash-tests.md).
// Starts the real server (a fresh embedded PostgreSQL unless DATABASE_URL is set) and runs 50 concurrent
// clients for LOAD_SECONDS (default 60): 40 learners writing their own day 1 progress and one tutor,
// on 10 clients, editing the same learners' rows. Then reads every learner's progress and checks each
// row against the writes the server acknowledged. Prints requests per second, latency and answers by
// class; exits 1 on a lost write or any answer other than 2xx.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { completionOf } from "#course/course";
import type { TaskStatus } from "#course/progress-status";
import { loadCourse } from "#server/course/content";
import { freePort, httpClient, makeAdmin, signUpAndIn, startServer, stopServer } from "./bench-server";

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const LEARNERS = 40;
const TUTOR_CLIENTS = 10;
/** How often a learner's write is "completed" rather than "in-progress": rows take a while to finish. */
const COMPLETE_CHANCE = 0.1;

const [chapter] = loadCourse({ publicDir: null });
const day = chapter!.days[0]!;
const completion = (taskId: string) => completionOf([chapter!], { chapterId: chapter!.id, dayId: day.id, taskId });
// A practice set's task is completed by answering it, never by a status write: it is left out. A
// spoken task is completed by speaking, so a learner's write of one is only ever "in-progress".
const tasks = day.tasks.map((task) => task.id).filter((taskId) => completion(taskId) !== "answers");
const learnerMayComplete = new Set(tasks.filter((taskId) => completion(taskId) === "status"));
// Three kinds of row per learner. Rows with one writer have exactly one right final state; rows the
// learner and the tutor both write have a set of them, from the writes that may have been last.
const LEARNER_ONLY = tasks.slice(0, 3);
const TUTOR_ONLY = tasks.slice(3, 5);
const SHARED = tasks.slice(5);
if (SHARED.length === 0) throw new Error(`${chapter!.id}/${day.id} needs at least 6 tasks for this test`);

interface Write {
  by: "learner" | "tutor";
  status: TaskStatus;
  sentAt: number;
  ackAt: number;
}

/** Acknowledged writes of each row (learner index and task), in the order their answers came. */
const acknowledged = new Map<string, Write[]>();
const latencies: { learner: number[]; tutor: number[] } = { learner: [], tutor: [] };
const answers = { "2xx": 0, "4xx": 0, "5xx": 0, "no answer": 0 };
const problems: string[] = [];

const rowKey = (learner: number, task: string) => `${learner} ${task}`;
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

const runId = Date.now().toString(36);
const account = (name: string) => ({
  email: `load-${runId}-${name}@example.com`,
  password: "load-test-password",
  firstName: name,
  lastName: "Load",
});

const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-load-"));
const port = await freePort();
const client = httpClient(port);
// Production, except for the sign-in rate limit: this test signs 42 accounts in from one address. The
// limit guards only /api/auth/*, which the load itself does not call.
const { child } = await startServer(dataDir, port, "production", {
  env: { RATE_LIMIT: "false" },
});
try {
  const admin = await signUpAndIn(client, account("admin"));
  await makeAdmin(dataDir, account("admin").email);
  const tutor = await signUpAndIn(client, account("tutor"));
  const promoted = await client.request("PATCH", `/api/users/${tutor.id}/role`, {
    cookie: admin.cookie,
    json: { role: "Tutor" },
  });
  if (promoted.status !== 200) throw new Error(`promoting the tutor: ${promoted.status} ${promoted.body}`);
  const learners: { id: string; cookie: string }[] = [];
  for (let first = 0; first < LEARNERS; first += 4) {
    const batch = Array.from({ length: Math.min(4, LEARNERS - first) }, (_, offset) =>
      signUpAndIn(client, account(`learner${first + offset}`)),
    );
    learners.push(...(await Promise.all(batch)));
  }

  /** Sends one write and records its answer; false when the run must stop (nothing but 2xx is expected). */
  async function write(by: Write["by"], learner: number, task: string, status: TaskStatus): Promise<boolean> {
    const target = [chapter!.id, day.id, task].map(encodeURIComponent).join("/");
    const url = by === "learner" ? `/api/progress/${target}` : `/api/users/${learners[learner]!.id}/progress/${target}`;
    const cookie = by === "learner" ? learners[learner]!.cookie : tutor.cookie;
    const sentAt = performance.now();
    try {
      const answer = await client.request("PUT", url, { cookie, json: { status } });
      const ackAt = performance.now();
      latencies[by].push(ackAt - sentAt);
      const kind = answer.status >= 500 ? "5xx" : answer.status >= 400 ? "4xx" : "2xx";
      answers[kind] += 1;
      if (kind === "2xx") {
        const key = rowKey(learner, task);
        const writes = acknowledged.get(key) ?? [];
        writes.push({ by, status, sentAt, ackAt });
        acknowledged.set(key, writes);
        return true;
      }
      problems.push(`${by} PUT ${url} (${status}): ${answer.status} ${answer.body.slice(0, 200)}`);
    } catch (error) {
      answers["no answer"] += 1;
      problems.push(`${by} PUT ${url} (${status}): ${(error as Error).message}`);
    }
    return false;
  }

  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  const learnerLoop = async (learner: number) => {
    const rows = [...LEARNER_ONLY, ...SHARED];
    while (performance.now() < deadline) {
      const task = pick(rows);
      const status = learnerMayComplete.has(task) && Math.random() < COMPLETE_CHANCE ? "completed" : "in-progress";
      if (!(await write("learner", learner, task, status))) return;
    }
  };
  // Each tutor client owns every tenth learner, so a tutor-only row has one writer at a time.
  const tutorLoop = async (tutorClient: number) => {
    const mine = learners.map((_, index) => index).filter((index) => index % TUTOR_CLIENTS === tutorClient);
    const statuses: TaskStatus[] = ["not-started", "in-progress", "completed"];
    while (performance.now() < deadline) {
      const ok = await write("tutor", pick(mine), pick([...TUTOR_ONLY, ...SHARED]), pick(statuses));
      if (!ok) return;
    }
  };
  await Promise.all([
    ...learners.map((_, index) => learnerLoop(index)),
    ...Array.from({ length: TUTOR_CLIENTS }, (_, index) => tutorLoop(index)),
  ]);
  const elapsedS = (performance.now() - started) / 1000;

  const finalStates = await Promise.all(
    learners.map(async ({ id }) => {
      const answer = await client.request("GET", `/api/users/${id}/progress`, { cookie: tutor.cookie });
      if (answer.status !== 200) throw new Error(`reading ${id}'s progress: ${answer.status} ${answer.body}`);
      const progress = (JSON.parse(answer.body) as { progress: Record<string, Record<string, Record<string, string>>> })
        .progress;
      return progress[chapter!.id]?.[day.id] ?? {};
    }),
  );

  let lost = 0;
  let checkedWrites = 0;
  learners.forEach((_, learner) => {
    for (const task of tasks) {
      const writes = acknowledged.get(rowKey(learner, task)) ?? [];
      checkedWrites += writes.length;
      const final = (finalStates[learner]![task] ?? "not-started") as TaskStatus;
      const allowed = SHARED.includes(task) ? possibleLastStates(writes) : new Set([replay(writes)]);
      if (!allowed.has(final)) {
        lost += 1;
        problems.push(
          `learner ${learner}, ${task}: read "${final}", expected ${[...allowed].map((s) => `"${s}"`).join(" or ")} after ${writes.length} acknowledged writes`,
        );
      }
    }
  });

  const requests = latencies.learner.length + latencies.tutor.length;
  const all = [...latencies.learner, ...latencies.tutor];
  console.log(
    `\nLoad: ${LEARNERS} learners + 1 tutor on ${TUTOR_CLIENTS} clients = ${LEARNERS + TUTOR_CLIENTS} concurrent clients, ${SECONDS} s, ${os.cpus().length} cores, Node ${process.version}, NODE_ENV=production without the sign-in rate limit, ${process.env.DATABASE_URL ? "DATABASE_URL" : "embedded PostgreSQL"}`,
  );
  console.log(
    `requests: ${requests} (${Math.round(requests / elapsedS)} per second; learner ${latencies.learner.length}, tutor ${latencies.tutor.length})`,
  );
  console.log(
    `latency ms: all p50 ${percentile(all, 0.5)} p99 ${percentile(all, 0.99)}; learner p50 ${percentile(latencies.learner, 0.5)} p99 ${percentile(latencies.learner, 0.99)}; tutor p50 ${percentile(latencies.tutor, 0.5)} p99 ${percentile(latencies.tutor, 0.99)}`,
  );
  console.log(
    `answers: ${Object.entries(answers)
      .map(([kind, count]) => `${kind} ${count}`)
      .join(", ")}`,
  );
  console.log(
    `rows checked: ${LEARNERS * tasks.length} (${LEARNERS * (LEARNER_ONLY.length + TUTOR_ONLY.length)} with one writer, ${LEARNERS * SHARED.length} shared) holding ${checkedWrites} acknowledged writes; lost: ${lost}`,
  );
  for (const problem of problems.slice(0, 20)) console.error(`  ${problem}`);
  if (problems.length > 20) console.error(`  … and ${problems.length - 20} more`);
  const failed = lost > 0 || answers["2xx"] !== requests;
  console.log(failed ? "FAILED" : "OK: every acknowledged write is in the final read, and every request answered 2xx");
  if (failed) process.exitCode = 1;
} finally {
  client.close();
  await stopServer(child);
  await rm(dataDir, { recursive: true, force: true });
}

/** A learner's write: progress moves forward, so a completed task stays completed. */
function apply(state: TaskStatus, write: Write): TaskStatus {
  return write.by === "learner" && state === "completed" ? "completed" : write.status;
}

/** The state a row with one writer must have: its acknowledged writes applied in order. */
function replay(writes: readonly Write[]): TaskStatus {
  return writes.reduce(apply, "not-started" as TaskStatus);
}

/**
 * The states a row written by both the learner and the tutor may end in. A write may be the last
 * one only if no other write was sent after its answer came (a write sent later reaches the database
 * later). A tutor's write or a learner's "completed" leaves its own status; a learner's "in-progress"
 * leaves "in-progress", or "completed" when some "completed" may have come before it.
 */
function possibleLastStates(writes: readonly Write[]): Set<TaskStatus> {
  if (writes.length === 0) return new Set(["not-started"]);
  const states = new Set<TaskStatus>();
  for (const write of writes) {
    if (writes.some((other) => other.sentAt > write.ackAt)) continue;
    states.add(write.status);
    if (write.by === "learner" && writes.some((other) => other.status === "completed" && other.sentAt < write.ackAt)) {
      states.add("completed");
    }
  }
  return states;
}

function percentile(values: readonly number[], fraction: number): string {
  if (values.length === 0) return "-";
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!.toFixed(1);
}
