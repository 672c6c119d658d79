import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "#scripts/bench-server";

/** Debian's coturn, which the call-through-a-relay test needs as the others need Chromium (.ci/run installs both). */
function assertCoturnInstalled() {
  if (spawnSync("turnserver", ["--version"], { stdio: "ignore" }).status !== 0) {
    throw new Error("coturn is not installed: apt-get install -y coturn (the README's test set-up)");
  }
}

/**
 * A local coturn as README.md configures one (`use-auth-secret`), on 127.0.0.1 only, relaying to
 * loopback peers (the two browsers of a test), with its own database in a temporary directory. The
 * README's configuration denies loopback and private peers; here both browsers are on loopback, so
 * this test server alone allows them (`--allow-loopback-peers`) and passes none of the denials.
 * Answers the TURN_URL and TURN_SECRET an instance of the app takes; given the port and secret of one
 * that was stopped, it comes back as the same server.
 */
export async function startCoturn({
  port: givenPort,
  secret = randomBytes(24).toString("base64url"),
}: {
  port?: number;
  secret?: string;
} = {}) {
  assertCoturnInstalled();
  const port = givenPort ?? (await freePort());
  const dir = await mkdtemp(path.join(os.tmpdir(), "jalan-coturn-"));
  const child: ChildProcess = spawn(
    "turnserver",
    [
      "-n",
      "--no-cli",
      "--no-tls",
      "--no-dtls",
      "--listening-ip=127.0.0.1",
      "--relay-ip=127.0.0.1",
      `--listening-port=${port}`,
      "--min-port=49200",
      "--max-port=49400",
      "--use-auth-secret",
      `--static-auth-secret=${secret}`,
      "--realm=jalan.test",
      "--allow-loopback-peers",
      "--fingerprint",
      `--db=${path.join(dir, "turndb")}`,
      `--pidfile=${path.join(dir, "turnserver.pid")}`,
      "--log-file=stdout",
      "--simple-log",
    ],
    { stdio: "ignore" },
  );
  // Ready once it takes a TCP connection on its port.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error("coturn did not start");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    secret,
    env: { TURN_URL: `turn:127.0.0.1:${port}?transport=udp`, TURN_SECRET: secret },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
