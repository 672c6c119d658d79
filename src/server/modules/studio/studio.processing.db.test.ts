import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { TAKE_CHECKS } from "#course/studio";
import { studioTake } from "#server/db/schema";
import { personAs } from "#tests/booked-session";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { processedTake, uploadTake, voiceNamed } from "#tests/studio-voices";
import { createTestApp } from "#tests/test-app";
import { audioDurationMs } from "./take-processing";
import { speechLikeWav } from "./take-speech-like";

// The processing job on the queue, as the server runs it: the tests' app starts its queue on the first send.
const t = await createTestApp({}, { course: FIXTURE_COURSE });
const SPOKEN = readFileSync("tests/fixtures/takes/selamat-pagi.wav");

const recordingVoice = async () => voiceNamed(t, await personAs(t, "Admin"), "Aina", "kuala-lumpur");

/** Uploads `wav` as a take of "Selamat pagi" and waits until its job has written it. */
const processed = async (cookie: string, wav: Buffer) =>
  processedTake(t, cookie, (await uploadTake(t, cookie, wav)).id);

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
