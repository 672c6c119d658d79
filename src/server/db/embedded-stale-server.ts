// Clearing what an earlier instance that did not stop left on the cluster: its PostgreSQL and postmaster.pid.
import { existsSync } from "node:fs";
import { readFile, readlink, realpath, rm } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "pino";
import { GRACE_MS, sleep } from "./embedded-lock";

/**
 * Whether `pid` runs. A zombie (exited, not yet reaped by its parent, which PID 1 on some machines
 * never does for orphans) still answers kill(pid, 0), but it holds nothing any more: no files, no
 * sockets, no shared memory. Without /proc (outside Linux) the signal's answer stands.
 */
async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const processStat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (processStat === null) return !existsSync("/proc/self/stat");
  // "pid (command) state …": the command may hold spaces and parentheses, so read after the last ")".
  const state = processStat.slice(processStat.lastIndexOf(")") + 2, processStat.lastIndexOf(")") + 3);
  return state !== "Z" && state !== "X";
}

/**
 * Whether `pid` is the postmaster of this cluster rather than a process that took its pid: a
 * postgres working in the cluster's directory. Without /proc (outside Linux) the pid alone is trusted.
 */
async function isPostmasterOf(pid: number, clusterDir: string): Promise<boolean> {
  const command = await readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => null);
  if (command === null) return !existsSync("/proc/self/stat");
  const workingDir = await readlink(`/proc/${pid}/cwd`).catch(() => null);
  return command.includes("postgres") && (workingDir === null || workingDir === (await realpath(clusterDir)));
}

interface PostmasterPid {
  pid: number;
  /** The key and id of the System V shared memory every process of that server is attached to. */
  sharedMemory: { key: string; id: string } | null;
}

/** What postmaster.pid records: the pid on line 1, the shared memory on line 7. */
async function readPostmasterPid(file: string): Promise<PostmasterPid | null> {
  const text = await readFile(file, "utf8").catch(() => null);
  if (text === null) return null;
  const lines = text.split("\n");
  const [key, id] = lines[6]?.trim().split(/\s+/) ?? [];
  return { pid: Number.parseInt(lines[0] ?? "", 10), sharedMemory: key && id ? { key, id } : null };
}

/**
 * Makes way for our server after an earlier start that did not stop. We hold the lock, so a
 * PostgreSQL still running on the cluster was left by a dead instance: it is stopped. Then
 * PostgreSQL judges its own postmaster.pid, as it would after a crash of the machine: stale when its
 * pid does not answer and no process is attached to the old server's shared memory. Removing the file
 * would take that second check away while old backends may still be writing, so we remove it only
 * where PostgreSQL would wrongly refuse: its pid answers, but is a zombie or another process.
 */
export async function clearStaleServer(clusterDir: string, logger: Logger): Promise<void> {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  const recorded = await readPostmasterPid(pidFile);
  if (recorded === null) return;
  // An empty or cut-off file from a start that crashed, which PostgreSQL refuses to guess about.
  if (!(recorded.pid > 0)) {
    await rm(pidFile, { force: true });
    return;
  }
  if ((await isRunning(recorded.pid)) && (await isPostmasterOf(recorded.pid, clusterDir))) {
    logger.warn({ pid: recorded.pid }, "stopping a PostgreSQL left running by an earlier start");
    await stopProcess(recorded.pid);
  }
  // Every backend runs in its own session, so killing the app's process group leaves them running
  // until they notice their postmaster is gone, which takes them a moment.
  const released = await sharedMemoryReleased(recorded);
  if (!existsSync(pidFile) || !signalReaches(recorded.pid)) return;
  if (!released) {
    throw new Error(
      `Processes of an earlier PostgreSQL still use ${clusterDir} (they are attached to its shared memory, ` +
        `id ${recorded.sharedMemory?.id}). Stop them, then start again.`,
    );
  }
  await rm(pidFile, { force: true });
}

/** What PostgreSQL asks of the pid in its lock file: whether a signal reaches it (a zombie's does). */
function signalReaches(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits up to GRACE_MS until no process is attached to the old server's shared memory, PostgreSQL's
 * own test of whether a server's processes are gone. The segment is the one with the recorded key and
 * id that the postmaster created: an id alone may since belong to another server. True at once where
 * /proc/sysvipc cannot be read (outside Linux); PostgreSQL's own test at start remains.
 */
async function sharedMemoryReleased({ pid, sharedMemory }: PostmasterPid): Promise<boolean> {
  if (sharedMemory === null) return true;
  const deadline = Date.now() + GRACE_MS;
  for (;;) {
    const table = await readFile("/proc/sysvipc/shm", "utf8").catch(() => "");
    // Columns: key shmid perms size cpid lpid nattch …
    const row = table
      .split("\n")
      .map((line) => line.trim().split(/\s+/))
      .find(([key, id, , , creator]) => key === sharedMemory.key && id === sharedMemory.id && creator === String(pid));
    if (!row || row[6] === "0") return true;
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
}

async function stopProcess(pid: number): Promise<void> {
  // SIGQUIT is PostgreSQL's immediate shutdown: no waiting on clients that no longer exist.
  // The WAL makes that safe; the next start replays it.
  for (const [signal, waitMs] of [
    ["SIGQUIT", 5_000],
    ["SIGKILL", 5_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    const deadline = Date.now() + waitMs;
    while (Date.now() < deadline) {
      if (!(await isRunning(pid))) return;
      await sleep(50);
    }
  }
  throw new Error(`Could not stop the stale PostgreSQL process ${pid}.`);
}
