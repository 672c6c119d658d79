// npm run bench (last part) — prints figures, asserts nothing. Builds the web app if it is stale,
// starts the real server (production mode, a fresh embedded PostgreSQL) and runs Lighthouse as a
// first-time visitor on a phone (mobile form factor, Lighthouse's simulated throttling: slow 4G, and
// a CPU slowdown calibrated from the machine's benchmarkIndex, decision 089) on the landing page and
// every learner's page, signed in as a learner (a new learner's session cookie is sent with every
// request): My Journey, chapter 1, day 1's story, its Codebook (twice, the second with a
// microphone), its live session and /review. Each page runs BENCH_LIGHTHOUSE_RUNS times (default 5);
// each goal's figure is the median of its runs, printed with the benchmarkIndex and the multiplier
// of the run, with the JavaScript and CSS that page loads, and each page against its goals:
// performance, LCP, TBT and the JavaScript it loads at first (gzip).
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { loadCourse } from "#server/course/content";
import { completeTask, type SendRequest } from "#tests/complete-day";
import { freePort, httpClient, signUpAndIn, startServer, stopServer } from "./bench-server";
import { Calibration } from "./bench-web-calibration";
import { CATEGORIES, median, type PageFigures } from "./bench-web-goals";
import { printResults } from "./bench-web-report";
import { buildWeb, webBuildIsStale } from "./build-web";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./chromium";

/** The JavaScript (gzip) a learner's page may load at first: what it needs later loads when asked. */
const LEARNER_PAGE_JS_GZIP_KB = 150;

// The landing page (a visitor's), then every learner's page, signed in: My Journey, chapter 1 and
// day 1's story, prerendered (decisions 010, 021), day 1's Codebook, its live session and the review.
// A page with `signedInBy` is measured signed in, and only if that API read answered 200.
// `jsGzipKb` is the page's budget of JavaScript, gzip, loaded at first.
const PAGES = [
  // A first visit loads the page entry only; the app starts at the first interaction (decision 010).
  { path: "/", jsGzipKb: 90 },
  { path: "/progress", signedInBy: "/api/progress", jsGzipKb: LEARNER_PAGE_JS_GZIP_KB },
  { path: "/chapter-1", signedInBy: "/api/progress", jsGzipKb: LEARNER_PAGE_JS_GZIP_KB },
  { path: "/chapter-1/day-1", signedInBy: "/api/progress", jsGzipKb: LEARNER_PAGE_JS_GZIP_KB },
  // The Codebook with its Practice mission open: the learner has done the missions before it.
  { path: "/chapter-1/day-1/codebook", signedInBy: "/api/progress", jsGzipKb: LEARNER_PAGE_JS_GZIP_KB },
  // The day's live session: its role-plays, and booking a tutor (which loads once the page is up).
  { path: "/chapter-1/day-1/live-session", signedInBy: "/api/progress", jsGzipKb: LEARNER_PAGE_JS_GZIP_KB },
  // Review with day 1's cards due: the learner started its phrase cards (BEFORE_PRACTICE).
  { path: "/review", signedInBy: "/api/review", jsGzipKb: LEARNER_PAGE_JS_GZIP_KB },
  // The Codebook again, in a browser with a microphone (Chromium's fake one) and the day's
  // recording on: the recorder, its waveforms and the role-play alone still load only when asked.
  {
    path: "/chapter-1/day-1/codebook",
    signedInBy: "/api/progress",
    jsGzipKb: LEARNER_PAGE_JS_GZIP_KB,
    microphone: true,
  },
] as const satisfies readonly {
  path: string;
  signedInBy?: string;
  jsGzipKb: number;
  microphone?: boolean;
}[];

/** The chunks of the learner's voice (recorder, waveforms, line practice, role-play alone, your turn). */
const VOICE_CHUNK = /\/(line-practice|use-recorder|wavesurfer[\w.]*|solo-role-play|your-turn)-[\w-]+\.js$/;
/** Chromium's own microphone and camera, granted without asking: what a learner with a microphone has. */
const MICROPHONE_FLAGS = ["--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"];

/**
 * The chunk of the exercise code every exercise needs, the practice set's and the review's
 * (src/web/components/exercise/practice-item.tsx).
 */
const EXERCISE_CHUNK = /\/practice-item-[\w-]+\.js$/;

/** Day 1's Codebook missions before Practice, completed so the page opens with Practice unlocked. */
const BEFORE_PRACTICE = ["codebook:listen-shadow", "codebook:review-notes", "codebook:review-vocab"];
/** Runs per page: the median of five is steady against one slow or fast run (decision 089). */
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 5);
/** Only the pages whose path is in this comma-separated list, if set (e.g. to measure one page again). */
const ONLY_PAGES = process.env.BENCH_WEB_PAGES?.split(",");
/** Lighthouse runs on the landing page that measure the machine before the first page's. */
const CALIBRATION_RUNS = 3;
/** Where to keep each run's whole Lighthouse report and trace (its long tasks, what blocked the main thread), if anywhere. */
const REPORTS_DIR = process.env.BENCH_LIGHTHOUSE_REPORTS;

interface NetworkRequest {
  url: string;
  statusCode?: number;
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/**
 * What the files would weigh gzip-compressed, as a compressing server or CDN would send them. The
 * transfer size Lighthouse saw is printed beside it: it is larger when the server does not compress.
 */
async function gzipBytes(requests: NetworkRequest[]): Promise<number> {
  let total = 0;
  for (const request of requests) {
    const body = Buffer.from(await (await fetch(request.url)).arrayBuffer());
    total += gzipSync(body).length;
  }
  return total;
}

interface Run {
  url: string;
  port: number;
  signedIn: { cookie: string; by: string } | null;
  jsBudgetKb: number;
  microphone: boolean;
}

async function measure({ url, port, signedIn, jsBudgetKb, microphone }: Run): Promise<PageFigures> {
  const cookie = signedIn?.cookie ?? null;
  const cpuMultiplier = calibration.multiplier;
  const result = await lighthouse(url, {
    port,
    output: "json",
    logLevel: "error",
    onlyCategories: [...CATEGORIES],
    // Lighthouse's simulated throttling, its CPU slowdown calibrated to this machine.
    throttling: { cpuSlowdownMultiplier: cpuMultiplier },
    // Sent with every request of the page; Lighthouse's storage reset does not clear it.
    extraHeaders: cookie ? { cookie } : null,
  });
  if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
  const { lhr } = result;
  calibration.saw(lhr.environment.benchmarkIndex);
  if (lhr.runtimeError) throw new LighthouseRunError(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  if (REPORTS_DIR) {
    const name = `${new URL(url).pathname.replace(/\W+/g, "_")}${microphone ? "-microphone" : ""}-${Date.now()}.json`;
    await writeFile(path.join(REPORTS_DIR, name), JSON.stringify(lhr));
    // The page load's trace, to open in Chromium's Performance panel.
    await writeFile(
      path.join(REPORTS_DIR, name.replace(/\.json$/, ".trace.json")),
      JSON.stringify(result.artifacts.Trace),
    );
  }
  const requests = ((lhr.audits["network-requests"]?.details as { items?: NetworkRequest[] } | undefined)?.items ??
    []) as NetworkRequest[];
  if (signedIn) {
    // Signed out, the page would send the visitor to sign in or invite them to: make sure that is
    // not what was measured.
    const landedOn = new URL(lhr.finalDisplayedUrl).pathname;
    const read = requests.find((request) => new URL(request.url).pathname === signedIn.by);
    if (landedOn !== new URL(url).pathname || read?.statusCode !== 200) {
      throw new Error(
        `${url} was not measured signed in (landed on ${landedOn}, GET ${signedIn.by} ${read?.statusCode})`,
      );
    }
  }
  const scripts = requests.filter((request) => request.resourceType === "Script");
  const styles = requests.filter((request) => request.resourceType === "Stylesheet");
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
  ) as PageFigures["scores"];
  const failedAudits = CATEGORIES.flatMap((id) =>
    (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && audit.score !== null && audit.score < 1)
      .map((audit) => `${id}: ${audit!.id} (${audit!.displayValue ?? audit!.score})`),
  );
  return {
    page: `${new URL(url).pathname}${microphone ? " (microphone)" : ""}`,
    jsBudgetKb,
    microphone,
    scores,
    lcpSeconds: (lhr.audits["largest-contentful-paint"]?.numericValue ?? 0) / 1000,
    cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? 0,
    tbtMs: lhr.audits["total-blocking-time"]?.numericValue ?? 0,
    jsGzipKb: kb(await gzipBytes(scripts)),
    jsTransferKb: kb(scripts.reduce((sum, request) => sum + (request.transferSize ?? 0), 0)),
    cssGzipKb: kb(await gzipBytes(styles)),
    cssTransferKb: kb(styles.reduce((sum, request) => sum + (request.transferSize ?? 0), 0)),
    totalTransferKb: kb(lhr.audits["total-byte-weight"]?.numericValue ?? 0),
    jsFiles: scripts.length,
    cssFiles: styles.length,
    exerciseCode: scripts.some((request) => EXERCISE_CHUNK.test(new URL(request.url).pathname)),
    voiceCode: scripts.some((request) => VOICE_CHUNK.test(new URL(request.url).pathname)),
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    cpuMultiplier: lhr.configSettings.throttling.cpuSlowdownMultiplier ?? cpuMultiplier,
    browser: /(?:Headless)?Chrome\/[\d.]+/.exec(lhr.environment.hostUserAgent)?.[0] ?? lhr.environment.hostUserAgent,
    lighthouse: lhr.lighthouseVersion,
    failedAudits,
  };
}

/** A failed trace (NO_NAVSTART and the like, seen on a busy machine): Lighthouse asks to run again. */
class LighthouseRunError extends Error {}

async function measureWithRetry(run: Run): Promise<PageFigures> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await measure(run);
    } catch (error) {
      if (!(error instanceof LighthouseRunError) || attempt === 3) throw error;
      console.log(`${error.message} — running it again`);
    }
  }
}

if (await webBuildIsStale()) {
  console.log("Building the web app (it is missing or older than its sources)…");
  await buildWeb({ logLevel: "warn" });
}

const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-web-"));
const port = await freePort();
let server: ChildProcess | undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;
let chromeWithMicrophone: chromeLauncher.LaunchedChrome | undefined;
const results: PageFigures[] = [];
const calibration = new Calibration();
const started = performance.now();
try {
  server = (await startServer(dataDir, port, "production")).child;
  const client = httpClient(port);
  const { cookie } = await signUpAndIn(client, {
    email: `bench-web-${Date.now().toString(36)}@example.com`,
    password: "kopi-susu-kurang-manis",
    firstName: "B",
    lastName: "M",
  });
  // Each as a learner completes it: the dialogue's lines said aloud, the notes watched, the cards flipped.
  const course = loadCourse({ publicDir: null });
  const send: SendRequest = async (method, path, json) => (await client.request(method, path, { cookie, json })).status;
  for (const taskId of BEFORE_PRACTICE) {
    const done = await completeTask(send, course, { chapterId: "chapter-1", dayId: "day-1", taskId });
    if (done !== "done") throw new Error(`completing ${taskId}: ${done}`);
  }
  client.close();
  chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROMIUM_FLAGS });
  chromeWithMicrophone = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: [...CHROMIUM_FLAGS, ...MICROPHONE_FLAGS],
  });
  // The machine measured before the first page: its multiplier then follows each run's measure.
  for (let run = 0; run < CALIBRATION_RUNS; run += 1) {
    const result = await lighthouse(`http://localhost:${port}/`, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyAudits: ["viewport"],
    });
    calibration.saw(result?.lhr.environment.benchmarkIndex ?? Number.NaN);
  }
  console.log(
    `Calibrated: benchmarkIndex ${calibration.benchmarkIndex} (median of ${CALIBRATION_RUNS} runs), ` +
      `CPU slowdown ${calibration.multiplier}x`,
  );
  for (const page of PAGES.filter(({ path }) => !ONLY_PAGES || ONLY_PAGES.includes(path))) {
    const microphone = "microphone" in page && page.microphone;
    const runs: PageFigures[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      runs.push(
        await measureWithRetry({
          url: `http://localhost:${port}${page.path}`,
          port: (microphone ? chromeWithMicrophone : chrome).port,
          signedIn: "signedInBy" in page ? { cookie, by: page.signedInBy } : null,
          jsBudgetKb: page.jsGzipKb,
          microphone,
        }),
      );
    }
    const figures = median(runs);
    results.push(figures);
    console.log(
      `${figures.page}: performance ${runs.map((run) => `${run.scores.performance} (index ${run.benchmarkIndex}, ${run.cpuMultiplier}x)`).join(", ")}`,
    );
  }
} finally {
  await chrome?.kill();
  await chromeWithMicrophone?.kill();
  if (server) await stopServer(server);
  await rm(dataDir, { recursive: true, force: true });
}

printResults(results, { runs: RUNS, minutes: (performance.now() - started) / 60_000 });

// What the learner's voice costs once asked for: each of its chunks, gzip, as the build made them.
const assets = path.resolve(import.meta.dirname, "../dist/web/assets");
const voiceChunks = (await readdir(assets)).filter((name) => VOICE_CHUNK.test(`/${name}`)).sort();
const voiceSizes = await Promise.all(
  voiceChunks.map(async (name) => ({ name, kb: kb(gzipSync(await readFile(path.join(assets, name))).length) })),
);
console.log(
  `\nThe learner's voice, loaded only when asked (gzip): ${voiceSizes.map(({ name, kb }) => `${name} ${kb} KB`).join(", ")}; ` +
    `${Math.round(voiceSizes.reduce((sum, { kb }) => sum + kb, 0) * 10) / 10} KB in all.`,
);
