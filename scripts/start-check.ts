// `npm start` on the running Node (CI runs it on Node 22): `scripts/start.mjs` on a fresh DATA_DIR
// (initdb, migrations, the built web app) answers /healthz, serves a page, lets a learner sign up,
// save a task and read it back, refuses a visitor, and exits 0 on SIGTERM with its PostgreSQL
// stopped. Exits 1 with the first thing that went wrong.

import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort, httpClient, signUpAndIn, startServer } from "./bench-server";

const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-start-check-"));
const port = await freePort();
const { child, readyMs } = await startServer(dataDir, port, "production", {
  entry: "scripts/start.mjs",
  env: { DATABASE_URL: undefined },
  timeoutMs: 120_000,
});
try {
  const client = httpClient(port);
  const home = await client.request("GET", "/");
  assert.equal(home.status, 200, "GET /");
  assert.match(home.body, /<title>[^<]*Jalan/, "GET / serves the landing page");

  const visitor = await client.request("GET", "/api/progress");
  assert.equal(visitor.status, 401, "a visitor's GET /api/progress");

  const learner = await signUpAndIn(client, {
    email: `start-check-${Date.now()}@example.com`,
    password: "start-check-password",
    firstName: "Alex",
    lastName: "Tan",
  });
  const task = "/api/progress/chapter-1/day-1/story:read-setting";
  const saved = await client.request("PUT", task, { cookie: learner.cookie, json: { status: "completed" } });
  assert.equal(saved.status, 200, `PUT ${task}: ${saved.body}`);
  const progress = await client.request("GET", "/api/progress", { cookie: learner.cookie });
  assert.equal(progress.status, 200, "GET /api/progress");
  assert.match(progress.body, /"story:read-setting"[^}]*"completed"/, "the saved task reads back as completed");

  const postmaster = path.join(dataDir, "postgres", "postmaster.pid");
  const postgresPid = Number((await readFile(postmaster, "utf8")).split("\n")[0]);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  assert.equal(await exited, 0, "the exit code after SIGTERM");
  assert.throws(() => process.kill(postgresPid, 0), "the embedded PostgreSQL has stopped");
  console.log(
    `npm start on Node ${process.versions.node}: ready in ${Math.round(readyMs)} ms; page, sign-up, save and read back, ` +
      "visitor refused; stopped on SIGTERM with exit code 0 and PostgreSQL stopped",
  );
} finally {
  if (child.exitCode === null) child.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
}
