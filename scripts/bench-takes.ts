// npm run bench (takes) — prints figures, asserts nothing. Starts the real server (a fresh embedded
// PostgreSQL unless DATABASE_URL is set, its own rate limits on) and measures /healthz while hostile
// takes arrive: 1 MB files that are valid WebM padded with half a million empty Void elements and
// valid MP4 followed by 127,000 empty boxes (tests/fixtures/padded-takes.ts), 16 at once from two
// learners, in ROUNDS rounds. The figure is /healthz's p99 during the uploads against its p99
// without them, in the same run, beside the bare route (the goal: 3x or less). Beside it, the same
// bursts of 1 MB uploads that are not audio at all (refused at their first bytes, by two other
// learners), in rounds taken in turn with the padded ones: what any upload of that size costs,
// whatever it holds, so that what padding adds shows apart from what receiving uploads costs. And two
// controls in the same rounds: 16 requests to the same route that carry one byte (refused at once,
// after the session and the takes' count, by two more learners), and 16 with no session at all:
// what 16 signed-in requests cost on this machine however little they carry, against what 16
// requests cost that touch no database.

import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { practisedLines } from "#course/speaking";
import { loadCourse } from "#server/course/content";
import { paddedMp4, paddedWebm } from "#tests/fixtures/padded-takes";
import { freePort, type HttpClient, httpClient, signUpAndIn, startServer, stopServer } from "./bench-server";

const GOAL_RATIO = 3;
const UPLOADS = 16;
/** Rounds of UPLOADS: 8 takes per learner a round, within the takes' limit of 30 a minute. */
const ROUNDS = 3;
/** Requests to /healthz kept in flight at once while measuring. */
const SAMPLERS = 2;
const BASELINE_MS = 3_000;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** Requests `path` with SAMPLERS loops until `until` settles; answers every latency. */
async function sample(client: HttpClient, pathname: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => {
    done = true;
  });
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: SAMPLERS }, async () => {
      while (!done) {
        const started = performance.now();
        await client.request("GET", pathname);
        times.push(performance.now() - started);
      }
    }),
  );
  return times;
}

/** A line of day 1 a new learner may record. */
const LINE_ID = practisedLines(loadCourse({ publicDir: null })[0]!.days[0]!)[0]!.id;

const wait = (delay: number) => new Promise((resolve) => setTimeout(resolve, delay));

/**
 * A take's upload as bytes, encoded once: encoding 16 MB of multipart at each round would hold this
 * process's event loop, and /healthz's times measured here with it.
 */
async function takeBody(bytes: Buffer, mp4: boolean) {
  const form = new FormData();
  form.set("chapterId", "chapter-1");
  form.set("dayId", "day-1");
  form.set("lineId", LINE_ID);
  const type = mp4 ? "audio/mp4" : "audio/webm";
  form.set("take", new File([new Uint8Array(bytes)], mp4 ? "take.mp4" : "take.webm", { type }));
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get("content-type")! };
}

type UploadAnswer = { status: number; code: string; ms: number };
type Upload = { cookie: string; body: Buffer; type: string };

/**
 * The uploads, sent by a process of their own at the lowest priority (bench-takes-uploader.mjs),
 * standing in for the network: what this process measures is the server's answer, not the cost of
 * sending 16 MB on the same two cores.
 */
function uploader() {
  const child = fork(fileURLToPath(new URL("./bench-takes-uploader.mjs", import.meta.url)), [String(port), origin], {
    serialization: "advanced",
  });
  os.setPriority(child.pid!, 19);
  return {
    send: (uploads: Upload[]) =>
      new Promise<UploadAnswer[]>((resolve, reject) => {
        child.once("message", (reply: { answers?: UploadAnswer[]; error?: string }) =>
          reply.answers ? resolve(reply.answers) : reject(new Error(reply.error)),
        );
        child.send(uploads);
      }),
    close: () => child.disconnect(),
  };
}

/** How a set of uploads was answered: the count of each status and code, and how long they took. */
function answered(answers: UploadAnswer[]) {
  const codes = new Map<string, number>();
  for (const answer of answers) {
    const key = `${answer.status} ${answer.code}`;
    codes.set(key, (codes.get(key) ?? 0) + 1);
  }
  const times = answers.map((answer) => answer.ms);
  const counts = [...codes].map(([code, count]) => `${count} x ${code}`).join(", ");
  return `${counts}; answered in median ${ms(percentile(times, 50))}, worst ${ms(Math.max(...times))}`;
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-takes-"));
const port = await freePort();
const origin = `http://localhost:${port}`;
const server = await startServer(dataDir, port, "test", { env: { RATE_LIMIT: "true" } });
try {
  const client = httpClient(port);
  const suffix = Date.now().toString(36);
  const learners = await Promise.all(
    ["a", "b", "c", "d", "e", "f", "g", "h"].map((who) =>
      signUpAndIn(client, {
        email: `bench-takes-${who}-${suffix}@example.com`,
        password: "nasi-lemak-pedas",
        firstName: who,
        lastName: "Bench",
      }),
    ),
  );
  const webm = await takeBody(paddedWebm(), false);
  const mp4 = await takeBody(paddedMp4(), true);
  const noise = await takeBody(randomBytes(1024 * 1024), false);
  const oneByte = { body: Buffer.from("x"), type: "text/plain" };
  const uploads = uploader();
  // Warm up: the take reader's workers start with the first take, as they would on a live server.
  await uploads.send([{ cookie: learners[0]!.cookie, ...webm }]);
  await sample(client, "/healthz", wait(500));

  const bare = await sample(client, "/api/unknown", wait(BASELINE_MS));
  const quiet = await sample(client, "/healthz", wait(BASELINE_MS));
  const busy: number[] = [];
  const answers: UploadAnswer[] = [];
  const plainBusy: number[] = [];
  const plainAnswers: UploadAnswer[] = [];
  const control = { signedIn: [] as number[], signedOut: [] as number[], answers: [] as UploadAnswer[] };
  /** One burst of UPLOADS from two learners, `bodies` in turn; /healthz sampled until all are answered. */
  const burst = async (
    cookies: string[],
    bodies: { body: Buffer; type: string }[],
    times: number[],
    into: UploadAnswer[],
    sampled = "/healthz",
  ) => {
    const sent = uploads.send(
      Array.from({ length: UPLOADS }, (_, index) => ({
        cookie: cookies[index % 2]!,
        ...bodies[Math.floor(index / 2) % bodies.length]!,
      })),
    );
    times.push(...(await sample(client, sampled, sent)));
    into.push(...(await sent));
  };
  const [a, b, c, d, e, f, g, h] = learners.map((learner) => learner.cookie);
  const bareBusy: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    await burst([a!, b!], [webm, mp4], busy, answers);
    await burst([c!, d!], [noise], plainBusy, plainAnswers);
    await burst([e!, f!], [oneByte], control.signedIn, control.answers);
    await burst(["", ""], [oneByte], control.signedOut, control.answers);
    // The bare route, which reads no database, while padded takes arrive: the event loop's own share.
    await burst([g!, h!], [webm, mp4], bareBusy, answers, "/api/unknown");
  }
  uploads.close();
  client.close();

  const quietP99 = percentile(quiet, 99);
  const ratio = percentile(busy, 99) / quietP99;
  console.log(`\nTakes: /healthz while padded takes arrive, ${os.cpus().length} cores, Node ${process.version}`);
  const row = (label: string, times: number[]) =>
    console.log(
      `  ${label.padEnd(52)}p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))} (${times.length} requests)`,
    );
  row("bare route (GET /api/unknown)", bare);
  row("/healthz, no uploads", quiet);
  row(`/healthz, ${ROUNDS} rounds of ${UPLOADS} padded uploads, 2 learners`, busy);
  row(`/healthz, ${ROUNDS} rounds of ${UPLOADS} 1 MB uploads not audio`, plainBusy);
  row(`/healthz, ${ROUNDS} rounds of ${UPLOADS} 1-byte requests, signed in`, control.signedIn);
  row(`/healthz, ${ROUNDS} rounds of ${UPLOADS} 1-byte requests, no session`, control.signedOut);
  row(`bare route, ${ROUNDS} rounds of ${UPLOADS} padded uploads`, bareBusy);
  console.log(`  /healthz p99 with padded uploads / without: ${ratio.toFixed(2)}x (goal ${GOAL_RATIO}x or less)`);
  console.log(
    `  /healthz p99 with uploads not audio / without: ${(percentile(plainBusy, 99) / quietP99).toFixed(2)}x; padded / not audio: ${(
      percentile(busy, 99) / percentile(plainBusy, 99)
    ).toFixed(2)}x`,
  );
  const ratioTo = (times: number[]) => `${(percentile(times, 99) / quietP99).toFixed(2)}x`;
  console.log(
    `  /healthz p99 with 1-byte signed-in requests / without: ${ratioTo(control.signedIn)}; with requests of no session: ${ratioTo(control.signedOut)}`,
  );
  console.log(
    `  bare route p99 with padded uploads / without: ${(percentile(bareBusy, 99) / percentile(bare, 99)).toFixed(2)}x`,
  );
  console.log(`  padded uploads: ${answered(answers)}`);
  console.log(`  uploads not audio: ${answered(plainAnswers)}`);
  console.log(`  1-byte requests: ${answered(control.answers)}`);
} finally {
  await stopServer(server.child);
  await rm(dataDir, { recursive: true, force: true });
}
