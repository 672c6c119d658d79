// npm run bench — prints figures, asserts nothing. Starts the real server (a fresh embedded
// PostgreSQL unless DATABASE_URL is set) and measures:
//   - time from process start to ready (cold: first start with initdb; warm: a restart)
//   - requests per second and latency of a bare route beside signed-in API reads and a progress write
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort, startServer, stopServer } from "./bench-server";

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

async function load(
  title: string,
  url: string,
  headers: Record<string, string> = {},
  request: { method?: "GET" | "PUT"; body?: string } = {},
) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, headers, ...request });
  const non2xx = result.non2xx;
  return {
    title,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx,
  };
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-"));
const port = await freePort();
const origin = `http://localhost:${port}`;
try {
  const cold = await startServer(dataDir, port, "test");
  await stopServer(cold.child);
  const warm = await startServer(dataDir, port, "test");

  const account = {
    email: "bench@example.com",
    password: "bench-password",
    name: "B M",
    firstName: "B",
    lastName: "M",
  };
  await fetch(`${origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify(account),
  });
  const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");

  const rows = [
    await load("bare route (GET /api/unknown → 404 JSON)", `${origin}/api/unknown`),
    await load("health check (GET /healthz, one SQL query)", `${origin}/healthz`),
    await load("signed-in read (GET /api/profile)", `${origin}/api/profile`, { cookie }),
    await load("progress read (GET /api/progress)", `${origin}/api/progress`, { cookie }),
    // Session, the learner's progress (for the unlock rule), then the upsert. After the first
    // request the status is unchanged, so the upsert's WHERE skips the row write: the cost of the
    // checks and the statement, which is what every save pays.
    await load(
      "progress write (PUT …/day-1/story:read-setting)",
      `${origin}/api/progress/chapter-1/day-1/story:read-setting`,
      { cookie, origin, "content-type": "application/json" },
      { method: "PUT", body: JSON.stringify({ status: "in-progress" }) },
    ),
  ];
  await stopServer(warm.child);

  console.log(
    `\nJalan benchmark — ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`,
  );
  console.log(`${CONNECTIONS} connections, ${DURATION_S} s per route\n`);
  console.log(`start to ready: first start ${Math.round(cold.readyMs)} ms, restart ${Math.round(warm.readyMs)} ms\n`);
  console.log(
    `${"route".padEnd(46)} ${"req/s".padStart(8)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"non-2xx".padStart(8)}`,
  );
  for (const row of rows) {
    console.log(
      `${row.title.padEnd(46)} ${String(row.rps).padStart(8)} ${String(row.p50).padStart(7)} ${String(row.p99).padStart(7)} ${String(row.non2xx).padStart(8)}`,
    );
  }
  const bare = rows[0]!.rps;
  console.log(`\nsigned-in read / bare route: ${(rows[2]!.rps / bare).toFixed(3)}`);
  console.log(`progress write / bare route: ${(rows[4]!.rps / bare).toFixed(3)}`);
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
