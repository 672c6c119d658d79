import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TAKE_CHECKS } from "#course/studio";
import { studioTake } from "#server/db/schema";
import { personAs } from "#tests/booked-session";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { createTestApp } from "#tests/test-app";
import { audioDurationMs } from "./take-processing";
import { speechLikeWav } from "./take-speech-like";

// The processing job on the queue, as the server runs it: the tests' app starts its queue on the first send.
const t = await createTestApp({}, { course: FIXTURE_COURSE });
const SPOKEN = readFileSync("tests/fixtures/takes/selamat-pagi.wav");

async function recordingVoice() {
  const [admin, tutor] = [await personAs(t, "Admin"), await personAs(t, "Tutor")];
  const granted = await t.request("/api/voices", {
    method: "POST",
    cookie: admin.cookie,
    json: { userId: tutor.id, creditedName: "Aina", accent: "kuala-lumpur" },
  });
  expect(granted.status).toBe(201);
  expect((await t.request("/api/voices/me/consent", { method: "POST", cookie: tutor.cookie })).status).toBe(200);
  return tutor;
}

/** Uploads `wav` as a take of "Selamat pagi" and waits (at most 30 s) until its job has written it. */
async function processed(cookie: string, wav: Buffer) {
  const response = await t.request("/api/studio/days/chapter-1/day-1/lines/line-selamat-pagi/takes", {
    method: "POST",
    cookie,
    body: new Blob([new Uint8Array(wav)], { type: "audio/wav" }),
  });
  expect(response.status).toBe(202);
  const { take } = await response.json();
  const deadline = Date.now() + 30_000;
  for (;;) {
    const read = await (await t.request(`/api/studio/takes/${take.id}`, { cookie })).json();
    if (read.take.state !== "processing") return read.take;
    if (Date.now() > deadline) throw new Error("the take was not processed within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe("a take's processing, on the queue", { timeout: 60_000 }, () => {
  it("passes a spoken line, normalises it and keeps its clip for review", async () => {
    const voice = await recordingVoice();
    const take = await processed(voice.cookie, SPOKEN);
    expect(take.checks.map((check: { id: string }) => check.id)).toEqual([...TAKE_CHECKS]);
    expect(take.checks.filter((check: { ok: boolean }) => !check.ok)).toEqual([]);
    expect(take.state).toBe("in-review");
    expect(take.loudness.integratedLufs).toBeGreaterThan(-17);
    expect(take.loudness.integratedLufs).toBeLessThan(-15);
    expect(take.loudness.truePeakDbtp).toBeLessThanOrEqual(-1);
    const clip = await t.request(take.clipUrl, { cookie: voice.cookie });
    expect(clip.headers.get("content-type")).toBe("audio/webm");
    const bytes = Buffer.from(await clip.arrayBuffer());
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    expect(Math.abs((await audioDurationMs(bytes)) - take.durationMs)).toBeLessThan(100);
    const [row] = await t.db.select().from(studioTake).where(eq(studioTake.id, take.id));
    expect(row!.processingMs).toBeGreaterThan(0);
  });

  it("sends a silent take back with what to do, and keeps no clip", async () => {
    const voice = await recordingVoice();
    const take = await processed(voice.cookie, speechLikeWav({ speechMs: 0, noiseDbfs: -90 }));
    expect(take.state).toBe("needs-fix");
    expect(take.clipUrl).toBeNull();
    const silent = take.checks.find((check: { id: string }) => check.id === "silent");
    expect(silent.ok).toBe(false);
    expect(silent.message).toMatch(/silence/i);
  });
});
