// npm run test:crash — acknowledged writes survive kill -9, and the server recovers by itself
// (docs/decisions/020-load-and-crash-tests.md, 023-instance-lock-and-secrets.md). CRASH_ROUNDS
// (default 20) rounds on one DATA_DIR and its embedded PostgreSQL: writers save progress
// continuously; after a random 0.3–2 s the app's whole process group is killed with SIGKILL, as a
// supervisor stops a service, on every other round after every process of PostgreSQL; then
// `npm start`'s script is started again at once, as by a supervisor with no restart delay (the killed
// process may not even be reaped yet), the time until /healthz answers 200 is measured (at most
// 10 s), and every row is read back and checked against the writes the server acknowledged. Exits 1
// on a lost write, a restart slower than 10 s, or an answer the workload never expects.

import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { courseOutline } from "#course/course";
import type { TaskStatus } from "#course/progress-status";
import { loadCourse } from "#server/course/content";
import { completeTask } from "#tests/complete-day";
import { freePort, type HttpClient, httpClient, makeAdmin, signUpAndIn, startServer, stopServer } from "./bench-server";

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 20);
const RESTART_LIMIT_MS = 10_000;
const STAFF_WRITERS = 4;
/** Each staff write moves a row one step along this cycle, so any three writes in a row differ. */
const CYCLE: readonly TaskStatus[] = ["not-started", "in-progress", "completed"];

const course = loadCourse({ publicDir: null });
/** Every task of the course, in course order. */
const tasks = courseOutline(course).flatMap((day) =>
  day.taskIds.map((taskId) => ({ chapterId: day.chapterId, dayId: day.dayId, taskId })),
);
type Task = (typeof tasks)[number];
const taskPath = (task: Task) => [task.chapterId, task.dayId, task.taskId].map(encodeURIComponent).join("/");

/** What a row must hold: `expected`, or `inFlight` when a write of it was cut off without an answer. */
interface Row {
  task: Task;
  expected: TaskStatus;
  inFlight: TaskStatus | null;
}
const newRows = (): Row[] => tasks.map((task) => ({ task, expected: "not-started", inFlight: null }));

const runId = Date.now().toString(36);
const account = (name: string) => ({
  email: `crash-${runId}-${name}@example.com`,
  password: "crash-test-password",
  firstName: name,
  lastName: "Crash",
});
const problems: string[] = [];

const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-crash-"));
const port = await freePort();
// The embedded PostgreSQL is what is killed, so a DATABASE_URL in the environment is ignored.
// Production mode: sessions, the rate limiter and the mailer as an operator runs them.
const start = () =>
  startServer(dataDir, port, "production", {
    entry: "scripts/start.mjs",
    env: { DATABASE_URL: undefined },
    timeoutMs: 60_000,
    detached: true,
  });
let server = await start();
console.log(`first start (initdb, migrations): ${Math.round(server.readyMs)} ms`);
try {
  let client = httpClient(port);
  // The admin has the tutor's rights over progress; one learner's rows are written by staff, the
  // other learner walks the course with their own saves.
  const admin = await signUpAndIn(client, account("admin"));
  await makeAdmin(dataDir, account("admin").email, { DATABASE_URL: undefined });
  const edited = await signUpAndIn(client, account("edited"));
  const walker = await signUpAndIn(client, account("walker"));
  const editedRows = newRows();
  const walkerRows = newRows();

  interface Round {
    mode: string;
    acknowledged: number;
    inFlight: number;
    restartMs: number;
    lost: number;
  }
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    let acknowledged = 0;

    /**
     * One write; true when acknowledged. Without an answer (the kill), the writer stops; so it does
     * at a 429 (the learner's answers per minute, LIMITS.answersPerUser), which wrote nothing.
     */
    const send = async (method: string, url: string, cookie: string, json?: unknown): Promise<boolean> => {
      const answer = await client.request(method, url, { cookie, json }).catch(() => null);
      if (answer?.status === 429) return false;
      if (answer && answer.status >= 200 && answer.status < 300) {
        acknowledged += 1;
        return true;
      }
      // A 5xx is expected once PostgreSQL is gone; a 4xx never is.
      if (answer && answer.status < 500)
        problems.push(`round ${round}: ${method} ${url}: ${answer.status} ${answer.body}`);
      return false;
    };
    const staffWriter = async (writer: number) => {
      const mine = editedRows.filter((_, index) => index % STAFF_WRITERS === writer);
      for (let step = 0; ; step += 1) {
        const row = mine[step % mine.length]!;
        const next = CYCLE[(CYCLE.indexOf(row.expected) + 1) % CYCLE.length]!;
        row.inFlight = next;
        const url = `/api/users/${edited.id}/progress/${taskPath(row.task)}`;
        if (!(await send("PUT", url, admin.cookie, { status: next }))) return;
        row.expected = next;
        row.inFlight = null;
      }
    };
    // In course order: in-progress, then completed, task by task (each day unlocks the next); at the
    // end of the course the admin resets the walker's progress and the walk starts again.
    const learnerWriter = async () => {
      for (;;) {
        const row = walkerRows.find((candidate) => candidate.expected !== "completed");
        if (!row) {
          for (const each of walkerRows) each.inFlight = "not-started";
          if (!(await send("DELETE", `/api/users/${walker.id}/progress`, admin.cookie))) return;
          for (const each of walkerRows) {
            each.expected = "not-started";
            each.inFlight = null;
          }
          continue;
        }
        const next = row.expected === "not-started" ? "in-progress" : "completed";
        row.inFlight = next;
        // "completed" the way a learner completes the task (`completeTask`): a practice set by answering
        // it, a spoken task by saying its lines; the server completes those, a status write the rest.
        const done =
          next === "completed"
            ? (await completeTask(
                async (method, url, json) => ((await send(method, url, walker.cookie, json)) ? 200 : 0),
                course,
                row.task,
              )) === "done"
            : await send("PUT", `/api/progress/${taskPath(row.task)}`, walker.cookie, { status: next });
        if (!done) return;
        row.expected = next;
        row.inFlight = null;
      }
    };
    const writers = Promise.all([
      ...Array.from({ length: STAFF_WRITERS }, (_, writer) => staffWriter(writer)),
      learnerWriter(),
    ]);

    await sleep(300 + Math.random() * 1700);
    const withPostgres = round % 2 === 0;
    if (withPostgres) {
      // The postmaster and every process it started, at once: what is only in PostgreSQL's shared
      // memory (WAL not yet written) is gone, as in a crash of the whole server.
      const pidFile = await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8");
      const postmaster = Number.parseInt(pidFile.split("\n")[0]!, 10);
      for (const pid of [postmaster, ...(await childrenOf(postmaster))]) killIfAlive(pid);
      // The app keeps serving for a moment without its database: writes in flight fail, none may be lost.
      await sleep(Math.random() * 300);
    }
    // The group holds the app and the postmaster it started. PostgreSQL's other processes each run in
    // a session of their own: they outlive it for a moment, until they notice the postmaster is gone.
    process.kill(-server.child.pid!, "SIGKILL");
    const [restarted] = await Promise.all([start(), writers]);
    client.close();
    const inFlight = [...editedRows, ...walkerRows].filter((row) => row.inFlight !== null).length;

    server = restarted;
    client = httpClient(port);
    const restartMs = Math.round(server.readyMs);
    if (restartMs > RESTART_LIMIT_MS) problems.push(`round ${round}: healthy ${restartMs} ms after the restart`);
    const lost =
      (await checkRows(client, admin.cookie, edited.id, editedRows, `round ${round}, staff-edited`)) +
      (await checkRows(client, admin.cookie, walker.id, walkerRows, `round ${round}, learner's own`));
    const mode = withPostgres ? "PostgreSQL, app group" : "app group";
    rounds.push({ mode, acknowledged, inFlight, restartMs, lost });
    console.log(
      `round ${String(round).padStart(2)}  kill -9 ${mode.padEnd(21)} writes acknowledged ${String(acknowledged).padStart(5)}  cut off ${inFlight}  restart to healthy ${restartMs} ms  lost ${lost}`,
    );
  }
  client.close();

  const restarts = rounds.map((round) => round.restartMs).sort((a, b) => a - b);
  const lost = rounds.reduce((sum, round) => sum + round.lost, 0);
  console.log(
    `\nCrash: ${ROUNDS} rounds (${rounds.filter((round) => !round.mode.startsWith("PostgreSQL")).length} the app's process group, ${rounds.filter((round) => round.mode.startsWith("PostgreSQL")).length} every PostgreSQL process, then the app's group), restarted at once, ${os.cpus().length} cores, Node ${process.version}`,
  );
  console.log(
    `writes acknowledged: ${rounds.reduce((sum, round) => sum + round.acknowledged, 0)}; rows checked after each restart: ${editedRows.length + walkerRows.length}; lost: ${lost}`,
  );
  if (restarts.length > 0) {
    console.log(
      `restart to healthy ms: min ${restarts[0]}, median ${restarts[Math.floor((restarts.length - 1) / 2)]}, max ${restarts.at(-1)} (limit ${RESTART_LIMIT_MS})`,
    );
  }
  for (const problem of problems.slice(0, 20)) console.error(`  ${problem}`);
  if (problems.length > 20) console.error(`  … and ${problems.length - 20} more`);
  const failed = problems.length > 0;
  console.log(failed ? "FAILED" : "OK: every acknowledged write survived, and every restart was healthy within 10 s");
  if (failed) process.exitCode = 1;
} finally {
  await stopServer(server.child);
  await stopLeftoverPostgres();
  await rm(dataDir, { recursive: true, force: true });
}

/** Reads a user's progress and compares every row; answers how many rows lost a write. */
async function checkRows(client: HttpClient, cookie: string, userId: string, rows: Row[], label: string) {
  const answer = await client.request("GET", `/api/users/${userId}/progress`, { cookie });
  if (answer.status !== 200) throw new Error(`${label}: reading the progress: ${answer.status} ${answer.body}`);
  const progress = (JSON.parse(answer.body) as { progress: Record<string, Record<string, Record<string, TaskStatus>>> })
    .progress;
  let lost = 0;
  for (const row of rows) {
    const { chapterId, dayId, taskId } = row.task;
    const found = progress[chapterId]?.[dayId]?.[taskId] ?? "not-started";
    if (found !== row.expected && found !== row.inFlight) {
      lost += 1;
      problems.push(
        `${label} ${chapterId}/${dayId}/${taskId}: read "${found}", acknowledged "${row.expected}"${row.inFlight ? ` (or "${row.inFlight}" cut off)` : ""}`,
      );
    }
    row.expected = found;
    row.inFlight = null;
  }
  return lost;
}

/** After a failed run the PostgreSQL of the last round may still run; stop it before removing its files. */
async function stopLeftoverPostgres() {
  const pidFile = await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").catch(() => "");
  const pid = Number.parseInt(pidFile.split("\n")[0] ?? "", 10);
  if (!(pid > 0)) return;
  try {
    process.kill(pid, "SIGQUIT");
  } catch {
    return;
  }
  for (let waited = 0; waited < 5_000; waited += 50) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await sleep(50);
  }
}

function killIfAlive(pid: number) {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** The processes whose parent is `pid`, from /proc. */
async function childrenOf(pid: number): Promise<number[]> {
  const entries = (await readdir("/proc")).filter((name) => /^\d+$/.test(name));
  const children = await Promise.all(
    entries.map(async (name) => {
      const stat = await readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
      // "pid (command) state ppid …": the command may hold spaces and parentheses, so read after the last ")".
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      return parent === pid ? Number(name) : null;
    }),
  );
  return children.filter((child): child is number => child !== null);
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
