import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

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

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  const state = await readFile(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").catch(() => "");
  const pid = Number.parseInt(state.split("\n")[0] ?? "", 10);
  if (pid > 0) process.kill(pid, "SIGQUIT");
  await new Promise((resolve) => setTimeout(resolve, 500));
  await rm(dataDir, { recursive: true, force: true });
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
    expect(await waitForHealth(port, 10_000)).toBeLessThan(10_000);
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
