import { mkdtemp, readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, startServer, stopServer } from "#scripts/bench-server";
import { runningEmbeddedPostgres } from "#server/db/embedded";

/**
 * A second instance of the app under test, as a second process behind a load balancer would be: the
 * first's PostgreSQL (its embedded one, on E2E_DATA_DIR) and session secret, on a port of its own.
 * Without a load balancer, a page reaches it (and it trusts pages) at its own address. Sessions are
 * the database's, and a cookie for localhost is sent to every port, so a user signed in on the first
 * instance is signed in on this one.
 */
export async function startSecondInstance(env: Record<string, string> = {}) {
  const dataDir = process.env.E2E_DATA_DIR!;
  const databaseUrl = await runningEmbeddedPostgres(dataDir);
  if (!databaseUrl) throw new Error("The server under test is not running on E2E_DATA_DIR.");
  const authSecret = (await readFile(path.join(dataDir, "auth-secret"), "utf8")).trim();
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const { child } = await startServer(await mkdtemp(path.join(os.tmpdir(), "jalan-e2e-b-")), port, "test", {
    env: { DATABASE_URL: databaseUrl, AUTH_SECRET: authSecret, PUBLIC_URL: origin, ...env },
    timeoutMs: 120_000,
  });
  return { origin, stop: () => stopServer(child) };
}
