// npm run bench (calls) — prints figures, asserts nothing. Two instances of the real server on one
// embedded PostgreSQL (the second reaches the first's database with the same AUTH_SECRET, as two
// processes behind a load balancer do), a learner and a tutor with a session starting now, then:
//   - the signalling round trip: a message from the learner's socket to the tutor's and back,
//     through PostgreSQL (a call_signal row and NOTIFY), both sides on one instance and one on each;
//   - the time to connected media: both sides open the room in Chromium (a fake camera and
//     microphone), and from the second "Join the session" until each page's call has sent and
//     received packets, 10 calls on one instance and 10 across the two.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import pg from "pg";
import WebSocket from "ws";
import { runningEmbeddedPostgres } from "#server/db/embedded";
import type { CallServerMessage } from "#server/modules/calls/calls.contract";
import { keepPeerConnections, packetsOf } from "#tests/peer-connections";
import { freePort, httpClient, signUpAndIn, startServer, stopServer } from "./bench-server";
import { buildWeb, webBuildIsStale } from "./build-web";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./chromium";

const ROUND_TRIPS = Number(process.env.BENCH_ROUND_TRIPS ?? 200);
const CALLS = Number(process.env.BENCH_CALLS ?? 10);

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** A socket into the room, with a wait for the next message that matches. */
async function roomSocket(port: number, bookingId: string, cookie: string, origin: string) {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/calls/${bookingId}/signal`, { headers: { cookie, origin } });
  const waiting: Array<{ matches: (message: CallServerMessage) => boolean; resolve: (m: CallServerMessage) => void }> =
    [];
  socket.on("message", (data) => {
    const message = JSON.parse(String(data)) as CallServerMessage;
    const index = waiting.findIndex((waiter) => waiter.matches(message));
    if (index >= 0) waiting.splice(index, 1)[0]!.resolve(message);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  return {
    next: (matches: (message: CallServerMessage) => boolean) =>
      new Promise<CallServerMessage>((resolve) => waiting.push({ matches, resolve })),
    send: (message: unknown) => socket.send(JSON.stringify(message)),
    close: () => socket.close(),
  };
}

/** Round trips of a message between two sockets of a room, through PostgreSQL. */
async function signallingRoundTrips(
  learner: Awaited<ReturnType<typeof roomSocket>>,
  tutor: Awaited<ReturnType<typeof roomSocket>>,
) {
  const times: number[] = [];
  for (let round = 0; round < ROUND_TRIPS; round += 1) {
    const sdp = `v=0 ping ${round}`;
    const started = performance.now();
    const echoed = tutor.next((message) => message.type === "description" && message.description.sdp === sdp);
    const back = learner.next((message) => message.type === "description" && message.description.sdp === sdp);
    learner.send({ type: "description", description: { type: "offer", sdp } });
    await echoed;
    tutor.send({ type: "description", description: { type: "answer", sdp } });
    await back;
    times.push(performance.now() - started);
  }
  return times;
}

/** A browser context signed in with `cookie`, whose pages keep every RTCPeerConnection they make. */
async function sideIn(browser: Browser, origin: string, cookie: string) {
  const context = await browser.newContext({ baseURL: origin });
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: origin };
    }),
  );
  await keepPeerConnections(context);
  return context.newPage();
}

/** Both sides open the room and join; from the second join until both pages send and receive media. */
async function timeToMedia(first: Page, second: Page, bookingId: string): Promise<number> {
  for (const page of [first, second]) {
    await page.goto(`/sessions/${bookingId}`);
    await page.getByRole("button", { name: "Join the session" }).waitFor();
  }
  await first.getByRole("button", { name: "Join the session" }).click();
  await first.getByText(/^Waiting for /).waitFor();
  const started = performance.now();
  await second.getByRole("button", { name: "Join the session" }).click();
  for (;;) {
    const [a, b] = await Promise.all([packetsOf(first), packetsOf(second)]);
    if (a.sent > 0 && a.received > 0 && b.sent > 0 && b.received > 0) return performance.now() - started;
    if (performance.now() - started > 30_000) {
      const states = await Promise.all([first, second].map((page) => page.getByRole("status").allTextContents()));
      throw new Error(`no media within 30 s: ${JSON.stringify({ a, b, states })}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

if (await webBuildIsStale()) await buildWeb();
const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-calls-"));
const otherDir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-calls-b-"));
const [portA, portB] = [await freePort(), await freePort()];
const origin = `http://localhost:${portA}`;
const a = await startServer(dataDir, portA, "production", { env: { PUBLIC_URL: origin, RATE_LIMIT: "false" } });
const databaseUrl = (await runningEmbeddedPostgres(dataDir))!;
const authSecret = (await readFile(path.join(dataDir, "auth-secret"), "utf8")).trim();
// The second instance: the first's database and secret. Without a load balancer in front, each is
// reached (and trusts pages) at its own address.
const otherOrigin = `http://localhost:${portB}`;
const b = await startServer(otherDir, portB, "production", {
  env: { DATABASE_URL: databaseUrl, AUTH_SECRET: authSecret, PUBLIC_URL: otherOrigin, RATE_LIMIT: "false" },
});
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
let browser: Browser | null = null;
try {
  const client = httpClient(portA);
  const account = (who: string) => ({
    email: `bench-${who}-${Date.now()}@example.com`,
    password: "kopi-susu-kurang-manis",
    firstName: who,
    lastName: "Bench",
  });
  const learner = await signUpAndIn(client, account("learner"));
  const tutor = await signUpAndIn(client, account("tutor"));
  client.close();
  await db.query(`update "user" set role = 'Tutor' where id = $1`, [tutor.id]);
  const { rows } = await db.query<{ id: string }>(
    `insert into booking (invite_uid, tutor_id, learner_id, chapter_id, day_id, starts_at, ends_at, status, confirmed_at)
     values (gen_random_uuid(), $1, $2, 'chapter-1', 'day-1', now(), now() + interval '1 hour', 'confirmed', now())
     returning id`,
    [tutor.id, learner.id],
  );
  const bookingId = rows[0]!.id;

  const signalling: Record<string, number[]> = {};
  for (const [label, learnerPort, learnerOrigin] of [
    ["one instance", portA, origin],
    ["across two instances", portB, otherOrigin],
  ] as const) {
    const tutorSide = await roomSocket(portA, bookingId, tutor.cookie, origin);
    await tutorSide.next((message) => message.type === "welcome");
    const learnerSide = await roomSocket(learnerPort, bookingId, learner.cookie, learnerOrigin);
    await learnerSide.next((message) => message.type === "peer");
    signalling[label] = await signallingRoundTrips(learnerSide, tutorSide);
    learnerSide.close();
    tutorSide.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_FLAGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"],
  });
  const media: Record<string, number[]> = {};
  for (const [label, learnerOrigin] of [
    ["one instance", origin],
    ["across two instances", otherOrigin],
  ] as const) {
    const tutorPage = await sideIn(browser, origin, tutor.cookie);
    const learnerPage = await sideIn(browser, learnerOrigin, learner.cookie);
    media[label] = [];
    for (let call = 0; call < CALLS; call += 1) media[label].push(await timeToMedia(tutorPage, learnerPage, bookingId));
    await tutorPage.context().close();
    await learnerPage.context().close();
  }

  console.log(`\nSession room: two instances on one PostgreSQL, ${os.cpus().length} cores, Node ${process.version}\n`);
  console.log(`signalling round trip (learner → tutor → learner through PostgreSQL), ${ROUND_TRIPS} rounds:`);
  for (const [label, times] of Object.entries(signalling)) {
    console.log(`  ${label.padEnd(22)} median ${ms(quantile(times, 0.5))}, p99 ${ms(quantile(times, 0.99))}`);
  }
  console.log(`time to connected media (second join → packets both ways on both pages), ${CALLS} calls:`);
  for (const [label, times] of Object.entries(media)) {
    console.log(`  ${label.padEnd(22)} median ${ms(quantile(times, 0.5))}, worst ${ms(Math.max(...times))}`);
  }
} finally {
  await browser?.close();
  await db.end();
  await stopServer(b.child);
  await stopServer(a.child);
  await rm(dataDir, { recursive: true, force: true });
  await rm(otherDir, { recursive: true, force: true });
}
