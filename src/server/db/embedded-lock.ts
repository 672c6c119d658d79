// The lock on a data directory that lets one instance run on it: a socket that dies with its process,
// kept where no other user can reach it.
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { chmod, link, lstat, mkdir, mkdtemp, readdir, realpath, rm, rmdir, symlink } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/**
 * How long a start waits for what an earlier instance left to go away: the instance itself when it is
 * stopping or dying (a kill takes a moment to complete), and the processes of its PostgreSQL.
 */
export const GRACE_MS = 5_000;

/** The directory of DATA_DIR that holds the lock, mode 0700. */
const LOCK_DIR = "lock";
/** The socket the running instance listens on. */
const INSTANCE = "instance.sock";
/**
 * A socket path has room for 104 bytes on macOS and 108 on Linux; our names in the lock directory
 * (INSTANCE, a spare socket's, a turn's) take at most 24 of them.
 */
const SOCKET_PATH_MAX = 100;
const NAME_MAX = 24;

/** The lock while this instance holds it. */
export interface InstanceLock {
  /** Lets the next instance take the lock: last, once PostgreSQL has stopped. */
  release(): Promise<void>;
}

interface LockHolder {
  /** What the holder answered; undefined when it did not answer within a second, or is not known. */
  pid: number | undefined;
}

/**
 * The lock is a Unix socket (a named pipe on Windows): the instance listens on it while it runs, and
 * the operating system closes it when the process ends, reaped or not, which a recorded pid cannot
 * tell (a pid answers signals until its zombie is reaped, and may be reused). Node opens it
 * close-on-exec, so PostgreSQL, which outlives a killed app, does not inherit it. Every file it uses
 * is in `DATA_DIR/lock`, a directory only our user can enter, so no other user can take the lock or
 * hold a start back; every spelling of `dataDir` leads to that one directory.
 */
export async function lockDataDir(dataDir: string): Promise<InstanceLock> {
  if (process.platform === "win32") return waitFor(dataDir, () => lockPipe(dataDir));
  const dir = await lockDirectoryOf(dataDir);
  await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  await checkLockDirectory(dir, dataDir);
  return withSockets(dir, async (sockets) => {
    const held = await waitFor(dataDir, () => take(sockets, INSTANCE));
    return { release: () => giveBack(held) };
  });
}

/** Who holds the lock on `dataDir`, or null when nobody does: what the command-line tools ask. */
export async function instanceHolder(dataDir: string): Promise<LockHolder | null> {
  if (process.platform === "win32") return lockHolder(await pipeName(dataDir));
  const dir = await lockDirectoryOf(dataDir);
  if (!existsSync(dir)) return null;
  await checkLockDirectory(dir, dataDir);
  return withSockets(dir, (sockets) => lockHolder(sockets.address(INSTANCE)));
}

/** Tries `attempt` until it takes the lock, for up to GRACE_MS while another instance holds it. */
async function waitFor<Lock extends object>(dataDir: string, attempt: () => Promise<Lock | LockHolder>): Promise<Lock> {
  const deadline = Date.now() + GRACE_MS;
  for (;;) {
    const taken = await attempt();
    if (!("pid" in taken)) return taken;
    if (Date.now() >= deadline) {
      throw new Error(
        `The data directory ${dataDir} is in use by another running instance${taken.pid ? ` (pid ${taken.pid})` : ""}. ` +
          "Stop it first, or give this instance its own DATA_DIR.",
      );
    }
    await sleep(100);
  }
}

/** `DATA_DIR/lock`, the same directory from every spelling of `dataDir`. */
async function lockDirectoryOf(dataDir: string): Promise<string> {
  return path.join(await realpath(dataDir), LOCK_DIR);
}

/**
 * Refuses a lock directory that is not a directory of ours, since whoever can write in it can take
 * the lock or hold a start back. A mode that lets others in is narrowed, and refused if another user
 * has put something there meanwhile.
 */
async function checkLockDirectory(dir: string, dataDir: string): Promise<void> {
  const info = await lstat(dir);
  const keeps = `${dir} keeps the lock that lets one instance run on the data directory ${dataDir}`;
  const remedy = "Remove it while no instance runs there.";
  if (!info.isDirectory()) {
    throw new Error(
      `${keeps}, so it must be a directory, but it is ${info.isSymbolicLink() ? "a symbolic link" : "not"}. ${remedy}`,
    );
  }
  const uid = process.getuid?.();
  if (info.uid !== uid) {
    throw new Error(
      `${keeps}, but it belongs to another user (uid ${info.uid}), who could take the lock. ` +
        "Start Jalan as that user, or remove the directory while no instance runs there.",
    );
  }
  if ((info.mode & 0o077) === 0) return;
  await chmod(dir, 0o700);
  for (const name of await readdir(dir)) {
    const owner = (await lstat(path.join(dir, name))).uid;
    if (owner !== uid) {
      throw new Error(
        `${keeps}, but it was open to other users, and ${name} in it is another user's (uid ${owner}). ${remedy}`,
      );
    }
  }
}

/** Where the lock's sockets are, by name: as files, and as addresses to listen on or connect to. */
interface Sockets {
  file(name: string): string;
  address(name: string): string;
}

/**
 * Runs `use` with the lock directory's sockets. Where that directory's path leaves no room for a
 * socket's name, they are reached through a symbolic link in a directory that `mkdtemp` made for
 * this call alone (mode 0700, a random name it never reuses), removed afterwards: the sockets
 * themselves stay in the lock directory. Closing a server removes the path it listened on, so one
 * listening through the link, closed after it is gone, removes nothing: its spare name was unlinked
 * at once and cannot be guessed.
 */
async function withSockets<T>(dir: string, use: (sockets: Sockets) => Promise<T>): Promise<T> {
  const file = (name: string) => path.join(dir, name);
  if (Buffer.byteLength(dir) + 1 + NAME_MAX <= SOCKET_PATH_MAX) return use({ file, address: file });
  const alias = await mkdtemp(path.join(os.tmpdir(), "jalan-"));
  const through = path.join(alias, "lock");
  try {
    await symlink(dir, through);
    return await use({ file, address: (name) => path.join(through, name) });
  } finally {
    await rm(through, { force: true });
    await rmdir(alias);
  }
}

interface HeldSocket {
  server: net.Server;
  file: string;
  /** The inode of our socket at `file`: only that is ours to remove. */
  ino: bigint;
}

/**
 * Listens as `name`, or says who does. A socket appears under `name` only once it listens (it is
 * linked there from a spare name, and `link` never replaces a file), so a socket that refuses
 * connections is one whose process ended, reaped or not. Such a socket is removed by whoever takes
 * the turn named after it (its inode and change time, which no later socket has), taken the same way:
 * two starts never both remove it, and the second cannot remove the socket the first put in its place.
 * A turn left by a start that died while holding it is cleared by a turn of its own.
 */
async function take(sockets: Sockets, name: string): Promise<HeldSocket | LockHolder> {
  for (;;) {
    const held = await listenAs(sockets, name);
    if (held) return held;
    const found = await inspect(sockets, name);
    if (found === undefined) continue;
    if (typeof found !== "string") return found;
    const turn = await take(sockets, turnName(name, found));
    // Another start is clearing it.
    if ("pid" in turn) return { pid: undefined };
    try {
      if ((await inspect(sockets, name)) === found) await rm(sockets.file(name), { force: true });
    } finally {
      await giveBack(turn);
    }
  }
}

/** Listens on a spare name and links the socket as `name`; null when `name` exists. */
async function listenAs(sockets: Sockets, name: string): Promise<HeldSocket | null> {
  const spare = `${randomBytes(8).toString("hex")}.new`;
  const server = await listenOn(sockets.address(spare));
  if (!server) return null;
  try {
    const { ino } = await lstat(sockets.file(spare), { bigint: true });
    await link(sockets.file(spare), sockets.file(name));
    return { server, file: sockets.file(name), ino };
  } catch (error) {
    await close(server);
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw error;
  } finally {
    await rm(sockets.file(spare), { force: true });
  }
}

/**
 * What is at `name`: who listens there, the identity of a socket nobody listens on, or undefined
 * when it went or changed while we looked.
 */
async function inspect(sockets: Sockets, name: string): Promise<LockHolder | string | undefined> {
  const before = await identity(sockets.file(name));
  if (before === null) return undefined;
  const holder = await lockHolder(sockets.address(name));
  if (holder) return holder;
  return (await identity(sockets.file(name))) === before ? before : undefined;
}

async function identity(file: string): Promise<string | null> {
  const info = await lstat(file, { bigint: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
  return info && `${info.ino}.${info.ctimeNs}`;
}

function turnName(name: string, identity: string): string {
  return `turn-${createHash("sha256").update(`${name} ${identity}`).digest("hex").slice(0, 16)}`;
}

/** Removes our socket's name while it is still ours, then stops listening. */
async function giveBack(held: HeldSocket): Promise<void> {
  const now = await lstat(held.file, { bigint: true }).catch(() => null);
  if (now?.ino === held.ino) await rm(held.file, { force: true });
  await close(held.server);
}

/**
 * On Windows, a named pipe from a hash of the directory's real path; it leaves no file to go stale.
 * Two starts at once can both find it free, and the second then fails to listen: it waits as for a holder.
 */
async function lockPipe(dataDir: string): Promise<InstanceLock | LockHolder> {
  const address = await pipeName(dataDir);
  const holder = await lockHolder(address);
  if (holder) return holder;
  const server = await listenOn(address);
  return server ? { release: () => close(server) } : { pid: undefined };
}

async function pipeName(dataDir: string): Promise<string> {
  const hash = createHash("sha256")
    .update(await realpath(dataDir))
    .digest("hex")
    .slice(0, 32);
  return `\\\\.\\pipe\\jalan-${hash}`;
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

function close(server: net.Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
