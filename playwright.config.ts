import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./scripts/chromium";

const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
/**
 * Chromium's own camera and a microphone saying "Selamat pagi, pak cik." over and over, granted without
 * asking. The voice pauses half a second between repeats, well under the recorder's 1.5 s of quiet that
 * ends a take by itself, so a take the test is recording never ends before the test stops it.
 */
const FAKE_MEDIA = [
  "--use-fake-device-for-media-stream",
  "--use-fake-ui-for-media-stream",
  `--use-file-for-fake-audio-capture=${path.resolve("tests/fixtures/takes/selamat-pagi.wav")}`,
];
// A fresh data directory (and so a fresh embedded PostgreSQL) for every run. The tests read and change
// that database directly (e2e/database.ts, e2e/outbox.ts), so a DATABASE_URL in the environment, there
// for the database tests of the same `npm test` (.ci/run), is not the server's.
delete process.env.DATABASE_URL;
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "jalan-e2e-"));
process.env.E2E_DATA_DIR = dataDir;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  // Two at a time: each test signs up its own learner, and the tests mostly wait on the app and on
  // media playing at 16x. The two chapter journeys start first, side by side.
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      // Tests start the Codebook's players from a script (element.play()), not from a click.
      args: [...CHROMIUM_FLAGS, "--autoplay-policy=no-user-gesture-required"],
    },
  },
  // The days of the whole course are the longest tests: listed first, they start at once and share
  // out among the workers.
  projects: [
    {
      // A learner who asks for reduced motion: the phrase cards turn over at once rather than in half a
      // second, which the journey's hundred-odd cards would each wait for before "I knew it" holds
      // still. The cards' turn is seen in e2e/course.spec.ts, where motion is not reduced.
      name: "whole-course",
      testMatch: /whole-course\.spec\.ts$/,
      fullyParallel: true,
      use: { ...devices["Desktop Chrome"], channel: undefined, reducedMotion: "reduce" },
    },
    {
      name: "chromium",
      testIgnore: /(whole-course|speak|spoken-review|voice-studio|session-room)\.spec\.ts$/,
      use: { ...devices["Desktop Chrome"], channel: undefined },
    },
    {
      // A microphone that says "Selamat pagi, pak cik." over and over, granted without asking.
      name: "speak",
      testMatch: /(speak|spoken-review|voice-studio)\.spec\.ts$/,
      use: {
        ...devices["Desktop Chrome"],
        channel: undefined,
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: [...CHROMIUM_FLAGS, "--autoplay-policy=no-user-gesture-required", ...FAKE_MEDIA],
        },
      },
    },
    {
      // A camera and a microphone (Chromium's own test pattern and the voice above), granted without asking.
      name: "call",
      testMatch: /session-room\.spec\.ts$/,
      use: {
        ...devices["Desktop Chrome"],
        channel: undefined,
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: [...CHROMIUM_FLAGS, ...FAKE_MEDIA],
        },
      },
    },
  ],
  webServer: {
    command: "node scripts/start.mjs",
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "test",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      PUBLIC_URL: BASE_URL,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      // e2e/staff.spec.ts signs up this account, opens its verification link and finds it an Admin.
      ADMIN_EMAILS: "admin@e2e.jalan.test",
    },
  },
});
