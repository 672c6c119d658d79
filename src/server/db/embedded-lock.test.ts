import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmod,
  chown,
  copyFile,
  link,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  realpath,
  rm,
  stat,
  symlink,
} from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { instanceHolder, lockDataDir } from "./embedded-lock";

const children: ChildProcess[] = [];
const made: string[] = [];

async function dataDir(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), name));
  made.push(dir);
  return dir;
}

/** A directory whose lock socket path would be longer than a socket address has room for. */
const longName = "jalan-lock-whose-path-is-too-long-for-a-unix-socket-".repeat(2);

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

/** Another local user where the tests run as root (`nobody`), else a process of ours. */
const anotherUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

/** Whether a user who is neither the owner nor in the group can reach and run `file`. */
async function othersCanRun(file: string): Promise<boolean> {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (((await stat(dir)).mode & 0o001) === 0) return false;
    if (dir === path.dirname(dir)) break;
  }
  return ((await stat(file)).mode & 0o001) !== 0;
}

/**
 * A Node the other user can run: ours, unless it lives somewhere only we can enter (a Node that
 * npx placed under root's home), then a copy in a directory of the test's own.
 */
async function nodeForAnotherUser(): Promise<string> {
  const node = await realpath(process.execPath);
  if (!("uid" in anotherUser) || (await othersCanRun(node))) return node;
  const dir = await dataDir("jalan-lock-node-");
  await chmod(dir, 0o755);
  const copy = path.join(dir, "node");
  await copyFile(node, copy);
  await chmod(copy, 0o755);
  return copy;
}

/**
 * A process of another user listening on `addresses` and answering with its pid, as a running
 * instance does: what anyone can do with a name computed from the data directory's path.
 */
async function squatter(addresses: string[]): Promise<number> {
  const script = `
    const net = require("node:net");
    let left = ${addresses.length};
    for (const address of ${JSON.stringify(addresses)}) {
      net.createServer((socket) => socket.end(process.pid + "\\n")).listen(address, () => {
        if (--left === 0) console.log("ready");
      });
    }
  `;
  const child = spawn(await nodeForAnotherUser(), ["-e", script], {
    ...anotherUser,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  await new Promise((resolve, reject) => {
    child.stdout?.once("data", resolve);
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(new Error(`the squatter stopped before listening (${code ?? signal})`)),
    );
  });
  return child.pid!;
}

/** The names the lock on `dir` was derived from, which any user could compute. */
async function computableNames(dir: string): Promise<string[]> {
  const hash = createHash("sha256")
    .update(await realpath(dir))
    .digest("hex")
    .slice(0, 32);
  const inTmp = path.join(os.tmpdir(), `jalan-${hash}.sock`);
  return process.platform === "linux" ? [`\0jalan-${hash}`, inTmp] : [inTmp];
}

/** A socket file nobody listens on, as a process that was killed leaves it. */
async function deadSocket(file: string): Promise<void> {
  const listening = `${file}.listening`;
  const server = await new Promise<net.Server>((resolve) => {
    const created = net.createServer().listen(listening, () => resolve(created));
  });
  await link(listening, file);
  await new Promise((resolve) => server.close(resolve));
}

/** Short-lived directories through which a long lock directory's sockets are reached. */
async function aliases(): Promise<string[]> {
  return (await readdir(os.tmpdir())).filter((name) => /^jalan-[A-Za-z0-9]{6}$/.test(name));
}

describe.runIf(process.platform !== "win32")("the lock on DATA_DIR", () => {
  it("cannot be held by another user through a name computed from the path", async () => {
    for (const dir of [await dataDir("jalan-lock-squatted-"), await dataDir(longName)]) {
      const names = await computableNames(dir);
      made.push(names.at(-1)!);
      await squatter(names);
      const lock = await lockDataDir(dir);
      expect(await instanceHolder(dir)).toEqual({ pid: process.pid });
      await lock.release();
    }
  }, 30_000);

  it("keeps everything it uses in DATA_DIR/lock, a directory only its user can enter", async () => {
    for (const dir of [await dataDir("jalan-lock-private-"), await dataDir(longName)]) {
      const lockDir = path.join(dir, "lock");
      const lock = await lockDataDir(dir);
      const info = await stat(lockDir);
      expect(info.mode & 0o777).toBe(0o700);
      expect(info.uid).toBe(process.getuid?.());
      expect(await readdir(lockDir)).toEqual(["instance.sock"]);
      expect((await lstat(path.join(lockDir, "instance.sock"))).isSocket()).toBe(true);
      expect(await aliases()).toEqual([]);
      await lock.release();
      expect(await readdir(lockDir)).toEqual([]);

      // A mode that lets others in is narrowed again.
      await chmod(lockDir, 0o777);
      await (await lockDataDir(dir)).release();
      expect((await stat(lockDir)).mode & 0o777).toBe(0o700);
    }
    expect(await aliases()).toEqual([]);
  });

  it("is found from every spelling of a long DATA_DIR", async () => {
    const dir = await dataDir(longName);
    const spelling = `${dir}-link`;
    await symlink(dir, spelling);
    made.push(spelling);
    const lock = await lockDataDir(spelling);
    expect(await instanceHolder(dir)).toEqual({ pid: process.pid });
    expect(await instanceHolder(`${dir}/../${path.basename(dir)}`)).toEqual({ pid: process.pid });
    await lock.release();
    expect(await instanceHolder(dir)).toBeNull();
  });

  it("refuses a lock directory that is a symbolic link or another user's, and changes nothing", async () => {
    const dir = await dataDir("jalan-lock-refused-");
    const lockDir = path.join(dir, "lock");
    const elsewhere = await dataDir("jalan-lock-elsewhere-");
    await symlink(elsewhere, lockDir);
    await expect(lockDataDir(dir)).rejects.toThrow(
      `${await realpath(dir)}/lock keeps the lock that lets one instance run on the data directory ${dir}, so it must be a directory, but it is a symbolic link.`,
    );
    expect(await readdir(elsewhere)).toEqual([]);
    await rm(lockDir);

    if (process.getuid?.() === 0) {
      await mkdir(lockDir, { mode: 0o700 });
      await chown(lockDir, 65534, 65534);
      await expect(lockDataDir(dir)).rejects.toThrow(
        "but it belongs to another user (uid 65534), who could take the lock",
      );
      expect(await readdir(lockDir)).toEqual([]);
      expect((await stat(lockDir)).uid).toBe(65534);

      // Ours, but left open: what another user put there meanwhile could answer as the holder.
      await chown(lockDir, 0, 0);
      await chmod(lockDir, 0o777);
      await deadSocket(path.join(lockDir, "instance.sock"));
      await chown(path.join(lockDir, "instance.sock"), 65534, 65534);
      await expect(lockDataDir(dir)).rejects.toThrow(
        "but it was open to other users, and instance.sock in it is another user's (uid 65534). Remove it while no instance runs there.",
      );
      expect(await readdir(lockDir)).toEqual(["instance.sock"]);
    }
  });

  it("lets exactly one of several starts at once take it, from a socket and a turn left by dead processes", async () => {
    const dir = await dataDir("jalan-lock-race-");
    const lockDir = path.join(dir, "lock");
    await (await lockDataDir(dir)).release();
    // What an instance killed while it held the lock leaves, and what a start killed while it cleared
    // that away leaves: the turn is named after the dead socket's inode and change time.
    await deadSocket(path.join(lockDir, "instance.sock"));
    const dead = await lstat(path.join(lockDir, "instance.sock"), { bigint: true });
    const turn = createHash("sha256").update(`instance.sock ${dead.ino}.${dead.ctimeNs}`).digest("hex").slice(0, 16);
    await deadSocket(path.join(lockDir, `turn-${turn}`));

    // Each start holds the lock for 300 ms once it has it, then gives it to the next; the others wait.
    const script = `
      const { lockDataDir } = await import(${JSON.stringify(path.resolve("src/server/db/embedded-lock.ts"))});
      console.log("ready");
      await new Promise((resolve) => process.stdin.once("data", resolve));
      const lock = await lockDataDir(process.argv[1]);
      const took = performance.timeOrigin + performance.now();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const gave = performance.timeOrigin + performance.now();
      await lock.release();
      console.log("held", took, gave);
      process.exit(0);
    `;
    const starts = Array.from({ length: 4 }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, dir], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      children.push(child);
      let output = "";
      child.stdout.on("data", (chunk) => (output += chunk));
      const ready = new Promise((resolve) => child.stdout.once("data", resolve));
      const held = new Promise<[number, number]>((resolve, reject) =>
        child.once("exit", (code) => {
          const found = /^held (\S+) (\S+)$/m.exec(output);
          if (code === 0 && found) resolve([Number(found[1]), Number(found[2])]);
          else reject(new Error(`a start failed (${code}): ${output}`));
        }),
      );
      return { child, ready, held };
    });
    await Promise.all(starts.map((start) => start.ready));
    for (const start of starts) start.child.stdin.end("go\n");
    const spans = (await Promise.all(starts.map((start) => start.held))).sort((a, b) => a[0] - b[0]);
    for (let index = 1; index < spans.length; index += 1) {
      expect(spans[index]![0]).toBeGreaterThanOrEqual(spans[index - 1]![1]);
    }
    // The dead socket, the dead turn and every turn taken to clear them are gone.
    expect(await readdir(lockDir)).toEqual([]);
  }, 60_000);

  it("is released by the operating system when its process is killed", async () => {
    const dir = await dataDir("jalan-lock-killed-");
    const script = `
      const { lockDataDir } = await import(${JSON.stringify(path.resolve("src/server/db/embedded-lock.ts"))});
      await lockDataDir(process.argv[1]);
      console.log("held");
      setInterval(() => undefined, 60_000);
    `;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, dir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    await new Promise((resolve) => child.stdout.once("data", resolve));
    expect(await instanceHolder(dir)).toEqual({ pid: child.pid });
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const started = Date.now();
    const lock = await lockDataDir(dir);
    expect(Date.now() - started).toBeLessThan(1_000);
    await lock.release();
  });
});
