// npm run bench (its outbox part) — prints figures, asserts nothing. Starts the real server on a
// fresh embedded PostgreSQL (or DATABASE_URL), signs a learner in, and measures
//   - the baseline: one direct request (PUT a task's progress), one at a time, p50;
//   - sync: 100 writes queued in the device's outbox (src/web/lib/offline, Dexie on fake-indexeddb
//     here, as in its tests) while offline, then sent in order as the device comes back online:
//     the time from the trigger to an empty outbox, per write, and its ratio to the baseline and to
//     the same writes sent straight one after another (the server's own share).
// The writes are the day's progress and line marks (answers are limited to 60 a minute).
import "fake-indexeddb/auto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { practisedLines } from "#course/speaking";
import { loadCourse } from "#server/course/content";
import { createOutbox, type Submission } from "#web/lib/offline/outbox";
import { OutboxDatabase } from "#web/lib/offline/outbox-store";
import { fetchTransport } from "#web/lib/offline/transport";
import { freePort, httpClient, signUpAndIn, startServer, stopServer } from "./bench-server";

const WRITES = Number(process.env.BENCH_OUTBOX_WRITES ?? 100);
const DIRECT = 50;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

/** The first day's writes, round and round: each task in progress, each line listened to. */
function writesOfDayOne(count: number): Submission[] {
  const chapter = loadCourse({ publicDir: null })[0]!;
  const day = chapter.days[0]!;
  const at = `/${encodeURIComponent(chapter.id)}/${encodeURIComponent(day.id)}`;
  const kinds: Submission[] = [
    ...day.tasks.map((task) => ({
      kind: "progress" as const,
      label: task.id,
      request: {
        method: "PUT" as const,
        path: `/progress${at}/${encodeURIComponent(task.id)}`,
        body: { status: "in-progress" },
      },
    })),
    ...practisedLines(day).map((line) => ({
      kind: "mark" as const,
      label: line.id,
      request: {
        method: "PUT" as const,
        path: `/speaking/days${at}/lines/${encodeURIComponent(line.id)}`,
        body: { listened: true },
      },
    })),
  ];
  return Array.from({ length: count }, (_, index) => kinds[index % kinds.length]!);
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-outbox-"));
const port = await freePort();
const server = await startServer(dataDir, port, "test");
try {
  const client = httpClient(port);
  const suffix = Date.now().toString(36);
  const learner = await signUpAndIn(client, {
    email: `outbox-${suffix}@example.com`,
    password: "a long bench password",
    firstName: "Bench",
    lastName: "Outbox",
  });
  const writes = writesOfDayOne(WRITES);
  const first = writes[0]!.request;
  const direct: number[] = [];
  for (let index = 0; index < DIRECT; index += 1) {
    const from = performance.now();
    const answer = await client.request(first.method, `/api${first.path}`, {
      cookie: learner.cookie,
      json: first.body,
    });
    if (answer.status !== 200) throw new Error(`The direct request got ${answer.status}: ${answer.body}`);
    direct.push(performance.now() - from);
  }

  // The same writes sent straight, one after another, as pages do online: the server's own share.
  const straightFrom = performance.now();
  for (const { request } of writes) {
    const answer = await client.request(request.method, `/api${request.path}`, {
      cookie: learner.cookie,
      json: request.body,
    });
    if (answer.status !== 200) throw new Error(`A direct write got ${answer.status}: ${answer.body}`);
  }
  const straightMs = performance.now() - straightFrom;

  const headers = { cookie: learner.cookie, origin: client.origin };
  let online = false;
  const transport = fetchTransport(fetch, `${client.origin}/api`, headers);
  const outbox = createOutbox({
    store: new OutboxDatabase(`bench-${suffix}`),
    transport: (request, clientId) =>
      online ? transport(request, clientId) : Promise.reject(new TypeError("offline")),
    owner: () => learner.id,
  });
  for (const write of writes) await outbox.submit(write).catch(() => undefined);
  const queued = await outbox.waiting();
  online = true;
  const from = performance.now();
  await outbox.flush({ now: true });
  const syncMs = performance.now() - from;
  const left = await outbox.waiting();
  const refused = (await outbox.refused()).length;
  outbox.stop();

  const base = percentile(direct, 50);
  console.log(`\nOutbox sync against the real app (${queued} writes queued offline):`);
  console.log(`  one direct request (PUT progress), p50 of ${DIRECT}: ${base.toFixed(2)} ms`);
  console.log(
    `  sync of ${queued} queued writes: ${syncMs.toFixed(0)} ms (${(syncMs / queued).toFixed(2)} ms a write)`,
  );
  console.log(`  the same ${writes.length} writes sent straight, one at a time: ${straightMs.toFixed(0)} ms`);
  console.log(`  a write synced / a direct request: ${(syncMs / queued / base).toFixed(2)}x`);
  console.log(`  sync / the same writes sent straight: ${(syncMs / straightMs).toFixed(2)}x`);
  console.log(`  left waiting: ${left}, refused: ${refused}`);
} finally {
  await stopServer(server.child);
  await rm(dataDir, { recursive: true, force: true });
}
