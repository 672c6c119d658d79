import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { lstat, mkdtemp, readFile, rename, rm, symlink, writeFile } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "#server/logger";
import { runningEmbeddedPostgres, startEmbeddedPostgres } from "./embedded";

const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-recovery-"));
const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Starts the real server process on the embedded PostgreSQL in `dataDir`. */
async function startServer(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  let output = "";
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    env: {
      ...env,
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: "http://localhost:3000",
      LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function waitForHealth(port: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`not healthy within ${timeoutMs} ms`);
}

/** The lock tests' DATA_DIRs: they share one cluster and run in order. */
const lockDir = await mkdtemp(path.join(os.tmpdir(), "jalan-lock-"));
const longDir = await mkdtemp(path.join(os.tmpdir(), "jalan-lock-whose-path-is-too-long-for-a-unix-socket-".repeat(2)));
const longDirLink = `${lockDir}-link`;

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of [dataDir, lockDir, longDir]) {
    const state = await readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8").catch(() => "");
    const pid = Number.parseInt(state.split("\n")[0] ?? "", 10);
    if (pid > 0) process.kill(pid, "SIGQUIT");
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  for (const dir of [dataDir, lockDir, longDir, longDirLink]) await rm(dir, { recursive: true, force: true });
});

describe("embedded PostgreSQL", () => {
  it("recovers by itself after the app is killed with SIGKILL, and keeps the data", async () => {
    const port = await freePort();
    const first = await startServer(port);
    await waitForHealth(port, 60_000);
    const signUp = await fetch(`http://127.0.0.1:${port}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000" },
      body: JSON.stringify({
        email: "durable@example.com",
        password: "secret-kopi",
        name: "D U",
        firstName: "D",
        lastName: "U",
      }),
    });
    expect(signUp.status).toBe(200);
    first.child.kill("SIGKILL");
    await new Promise((resolve) => first.child.once("exit", resolve));

    const second = await startServer(port);
    // Healthy again by itself. How fast is the crash test's figure (npm run test:crash, 10 s at most,
    // on a machine doing nothing else); here, beside other test files, it only has to come back.
    expect(await waitForHealth(port, 30_000)).toBeLessThan(30_000);
    expect(second.output()).toContain("stopping a PostgreSQL left running by an earlier start");
    const signIn = await fetch(`http://127.0.0.1:${port}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000" },
      body: JSON.stringify({ email: "durable@example.com", password: "secret-kopi" }),
    });
    expect(signIn.status).toBe(200);

    second.child.kill("SIGTERM");
    const code = await new Promise((resolve) => second.child.once("exit", resolve));
    expect(code).toBe(0);
    expect(second.output()).toContain('"msg":"stopped"');
  }, 120_000);
});

/**
 * Starts the launcher alone in a child process on `dir` and answers once its PostgreSQL runs. With
 * `unreaped`, the launcher's parent is a shell that has exec'd `sleep`, which never waits for
 * children: once killed, the launcher stays a zombie, as under a PID 1 that does not reap orphans.
 * With "launcher and postgres", that parent is also the children's subreaper (prctl, through Python),
 * so the PostgreSQL it leaves behind is reparented to it and stays a zombie once it exits, too.
 */
async function launcher(
  dir: string,
  { unreaped }: { unreaped?: "launcher" | "launcher and postgres" } = {},
): Promise<{ pid: number; url: string; exited: Promise<unknown> }> {
  const script = `
    const { startEmbeddedPostgres } = await import(${JSON.stringify(path.resolve("src/server/db/embedded.ts"))});
    const { createLogger } = await import(${JSON.stringify(path.resolve("src/server/logger.ts"))});
    const db = await startEmbeddedPostgres(process.argv[1], createLogger("warn"));
    console.log("ready", process.pid, db.url);
    process.on("SIGTERM", () => db.stop().then(() => process.exit(0)));
    setInterval(() => undefined, 60_000);
  `;
  const args = ["--import", "tsx", "--input-type=module", "-e", script, dir];
  const shell = ["sh", "-c", '"$0" "$@" & exec sleep 600', process.execPath, ...args];
  const subreaper = "import ctypes, os, sys; ctypes.CDLL(None).prctl(36, 1, 0, 0, 0); os.execvp('sh', sys.argv[1:])";
  const stdio: ["ignore", "pipe", "pipe"] = ["ignore", "pipe", "pipe"];
  const child =
    unreaped === undefined
      ? spawn(process.execPath, args, { stdio })
      : unreaped === "launcher"
        ? spawn(shell[0]!, shell.slice(1), { stdio })
        : spawn("python3", ["-c", subreaper, ...shell], { stdio });
  children.push(child);
  let output = "";
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      const ready = /^ready (\d+) (\S+)$/m.exec(output);
      if (ready) resolve({ pid: Number(ready[1]), url: ready[2]!, exited });
    });
    // Behind a wrapper that never exits, a failed launcher shows only in what it printed.
    child.stderr?.on("data", (chunk) => {
      output += chunk;
      if (/Error/.test(output)) reject(new Error(`the launcher failed:\n${output}`));
    });
    void exited.then(() => reject(new Error(`the launcher exited:\n${output}`)));
  });
}

/** The state letter of a process (R, S, Z…), from /proc/<pid>/stat; null when it is gone. */
async function processState(pid: number): Promise<string | null> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  return stat === null ? null : stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
}

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (const started = Date.now(); !(await condition()); ) {
    if (Date.now() - started > 10_000) throw new Error(`${what}: not within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function query(url: string, sql: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

async function postmasterPid(dir: string): Promise<number> {
  return Number.parseInt((await readFile(path.join(dir, "postgres", "postmaster.pid"), "utf8")).split("\n")[0]!, 10);
}

/** A logger whose lines the test can read. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger("info", stream), lines };
}

describe.runIf(process.platform === "linux")("the lock on DATA_DIR", () => {
  const stateFile = path.join(lockDir, "embedded-postgres.json");

  it("refuses a second instance while the first runs, after waiting for it to go away", async () => {
    const owner = await launcher(lockDir);
    // Tools beside a running app use its server.
    expect(await runningEmbeddedPostgres(lockDir)).toBe(owner.url);
    const started = Date.now();
    await expect(startEmbeddedPostgres(lockDir, createLogger("silent"))).rejects.toThrow(
      `The data directory ${lockDir} is in use by another running instance (pid ${owner.pid})`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_900);
    expect(await query(owner.url, "select 1 as one")).toEqual([{ one: 1 }]);

    // An instance that dies while a start waits for it is replaced.
    const next = startEmbeddedPostgres(lockDir, createLogger("silent"));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    process.kill(owner.pid, "SIGKILL");
    await (await next).stop();
  }, 60_000);

  it("starts at once after the instance was killed with SIGKILL and is not yet reaped", async () => {
    const owner = await launcher(lockDir, { unreaped: "launcher" });
    await query(owner.url, "create table kept (n int); insert into kept values (42)");
    const oldPostmaster = await postmasterPid(lockDir);
    process.kill(owner.pid, "SIGKILL");
    await until(async () => (await processState(owner.pid)) === "Z", "the killed launcher as a zombie");
    // Its PostgreSQL is still running: the lock was not handed down to it.
    expect(await processState(oldPostmaster)).toMatch(/^[RSD]$/);
    expect(await runningEmbeddedPostgres(lockDir)).toBeNull();

    const { logger, lines } = capturedLogger();
    const started = Date.now();
    const restarted = await startEmbeddedPostgres(lockDir, logger);
    try {
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await processState(owner.pid)).toBe("Z");
      expect(lines.join("")).toContain("stopping a PostgreSQL left running by an earlier start");
      expect(await query(restarted.url, "select n from kept")).toEqual([{ n: 42 }]);
    } finally {
      await restarted.stop();
    }
  }, 60_000);

  it.runIf(spawnSync("python3", ["--version"]).status === 0)(
    "does not wait on the PostgreSQL left behind when, once stopped, it stays a zombie",
    async () => {
      const owner = await launcher(lockDir, { unreaped: "launcher and postgres" });
      const oldPostmaster = await postmasterPid(lockDir);
      process.kill(owner.pid, "SIGKILL");
      await until(async () => (await processState(owner.pid)) === "Z", "the killed launcher as a zombie");

      const started = Date.now();
      const restarted = await startEmbeddedPostgres(lockDir, createLogger("silent"));
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await processState(oldPostmaster)).toBe("Z");
      await restarted.stop();
    },
    60_000,
  );

  it("starts when postmaster.pid names a zombie or a process that reused the pid, and leaves that process alone", async () => {
    const running = await startEmbeddedPostgres(lockDir, createLogger("silent"));
    const pidFile = path.join(lockDir, "postgres", "postmaster.pid");
    const lines = (await readFile(pidFile, "utf8")).split("\n");
    await running.stop();

    // PostgreSQL takes a pid that its signal reaches for a live postmaster. As root it runs as the
    // "postgres" user, whose signals reach only that user's processes: the stand-ins run as it too.
    const user =
      process.getuid?.() === 0
        ? { uid: Number(execFileSync("id", ["-u", "postgres"])), gid: Number(execFileSync("id", ["-g", "postgres"])) }
        : {};
    // A zombie: a child whose parent, having exec'd `sleep 600`, never reaps it. The child (`cat` on
    // fd 3) exits only once the shell is `sleep`: a shell may reap a child that exits before its exec.
    const zombieParent = spawn("sh", ["-c", "cat <&3 >/dev/null & echo $!; exec sleep 600"], {
      ...user,
      stdio: ["ignore", "pipe", "ignore", "pipe"],
    });
    children.push(zombieParent);
    const zombie = await new Promise<number>((resolve) =>
      zombieParent.stdout?.once("data", (chunk) => resolve(Number(String(chunk).trim()))),
    );
    const parentCommand = () => readFile(`/proc/${zombieParent.pid}/comm`, "utf8").catch(() => "");
    await until(async () => (await parentCommand()) === "sleep\n", "the zombie's parent as sleep");
    (zombieParent.stdio[3] as Writable).end();
    await until(async () => (await processState(zombie)) === "Z", "the zombie");
    const stranger = spawn("sleep", ["600"], user);
    children.push(stranger);

    for (const pid of [zombie, stranger.pid!]) {
      await writeFile(pidFile, [String(pid), ...lines.slice(1)].join("\n"));
      const started = Date.now();
      const db = await startEmbeddedPostgres(lockDir, createLogger("silent"));
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await query(db.url, "select n from kept")).toEqual([{ n: 42 }]);
      await db.stop();
    }
    expect(await processState(zombie)).toBe("Z");
    expect(await processState(stranger.pid!)).toMatch(/^[RS]$/);
  }, 60_000);

  it("does not make up a password for a cluster that exists when its state file is missing or unreadable", async () => {
    await rename(stateFile, `${stateFile}.saved`);
    const refusal = `${stateFile} is missing or unreadable, but the embedded PostgreSQL in ${path.join(lockDir, "postgres")} exists`;
    await expect(startEmbeddedPostgres(lockDir, createLogger("silent"))).rejects.toThrow(refusal);
    expect(existsSync(stateFile)).toBe(false);
    await writeFile(stateFile, "{");
    await expect(startEmbeddedPostgres(lockDir, createLogger("silent"))).rejects.toThrow(refusal);
    expect(await readFile(stateFile, "utf8")).toBe("{");

    // The refusals released the lock: with the file back, it starts.
    await rename(`${stateFile}.saved`, stateFile);
    await (await startEmbeddedPostgres(lockDir, createLogger("silent"))).stop();
  }, 60_000);

  it("is reached through a Unix socket in its cluster's directory, which no other local user can enter", async () => {
    const db = await startEmbeddedPostgres(lockDir, createLogger("silent"));
    try {
      const clusterDir = path.join(lockDir, "postgres");
      expect(new URL(db.url).searchParams.get("host")).toBe(clusterDir);
      // No server address: the connection is not over TCP.
      expect(await query(db.url, "select inet_server_addr() is null as local")).toEqual([{ local: true }]);
      const { port } = JSON.parse(await readFile(stateFile, "utf8")) as { port: number };
      expect((await lstat(path.join(clusterDir, `.s.PGSQL.${port}`))).isSocket()).toBe(true);
      expect((await lstat(clusterDir)).mode & 0o077).toBe(0);
    } finally {
      await db.stop();
    }
  }, 60_000);

  it("keeps the lock of a directory whose socket path would be too long inside it, found from any spelling", async () => {
    const owner = await launcher(longDir);
    // Too long a path for a Unix socket: TCP alone.
    expect(new URL(owner.url).searchParams.has("host")).toBe(false);
    expect((await lstat(path.join(longDir, "lock", "instance.sock"))).isSocket()).toBe(true);
    await symlink(longDir, longDirLink);
    expect(await runningEmbeddedPostgres(longDirLink)).toBe(owner.url);
    process.kill(owner.pid, "SIGTERM");
    await owner.exited;
  }, 60_000);
});
