// The lock on a data directory that lets one instance run on it: a socket that dies with its process.
import { createHash } from "node:crypto";
import { realpath, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * How long a start waits for what an earlier instance left to go away: the instance itself when it is
 * stopping or dying (a kill takes a moment to complete), and the processes of its PostgreSQL.
 */
export const GRACE_MS = 5_000;

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
export async function lockNames(dataDir: string): Promise<LockNames> {
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
export async function lockDataDir(dataDir: string): Promise<net.Server> {
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
export function lockHolder(address: string): Promise<LockHolder | null> {
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
export function release(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
