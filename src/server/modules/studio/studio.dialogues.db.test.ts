import { readFileSync } from "node:fs";
import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { courseAudioPath, sectionDialogueAudioPath } from "#course/course";
import { storedFile, studioDialogue } from "#server/db/schema";
import { moduleWorkers } from "#server/modules/registry";
import { personAs } from "#tests/booked-session";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { processedTake, until, uploadTake, voiceNamed } from "#tests/studio-voices";
import { createTestApp } from "#tests/test-app";
import { pauseAfterMs } from "./dialogue-audio";
import { BUILD_DIALOGUE_JOB } from "./studio.contract";
import { espeakDurations } from "./studio.reference";
import { audioDurationMs } from "./take-processing";

// The jobs on the queue, as the server runs them: the tests' app starts its queue on the first send.
const t = await createTestApp({}, { course: FIXTURE_COURSE });
const SPOKEN = readFileSync("tests/fixtures/takes/selamat-pagi.wav");
// Day 1's story section "dialogue" is the one its Codebook's listen-and-shadow plays (tests/fixtures/course.ts).
const SECTION = { chapterId: "chapter-1", dayId: "day-1", sectionId: "dialogue" };
const SECTION_AUDIO = sectionDialogueAudioPath("chapter-1", "day-1", "dialogue");
const LINES = [
  { id: "line-selamat-pagi", malay: "Selamat pagi, pak cik!" },
  { id: "line-nak-minum", malay: "Nak minum apa?" },
  { id: "line-kopi-o", malay: "Saya nak kopi-O satu." },
  { id: "line-terima-kasih", malay: "Terima kasih." },
];

/** The keys of the built recordings' files in the media storage. */
const dialogueFiles = async () =>
  (await t.db.select({ key: storedFile.key }).from(storedFile).where(like(storedFile.key, "studio/dialogues/%"))).map(
    (row) => row.key,
  );

const published = async () => (await (await t.request("/api/studio/published")).json()).clips;

/** A voice records "Selamat pagi" and an Admin publishes it once processed: the take as published. */
async function publishedLine() {
  const admin = await personAs(t, "Admin");
  const voice = await voiceNamed(t, admin, "Aina", "kuala-lumpur");
  const take = await uploadTake(t, voice.cookie, SPOKEN);
  await processedTake(t, voice.cookie, take.id);
  const review = await t.request(`/api/studio/takes/${take.id}/review`, {
    method: "POST",
    cookie: admin.cookie,
    json: { decision: "approve" },
  });
  expect(review.status).toBe(200);
  return { admin, voice, take: (await review.json()).take };
}

/** The length the recording should have: the native clip, espeak's length of the other lines, the shadowing pauses. */
async function expectedMs(clipUrl: string) {
  const clipMs = await audioDurationMs(Buffer.from(await (await t.request(clipUrl)).arrayBuffer()));
  const espeak = espeakDurations();
  const lines = [clipMs];
  for (const line of LINES.slice(1)) {
    lines.push(await espeak({ audio: courseAudioPath("chapter-1", "day-1", line.id), malay: line.malay }));
  }
  return lines.reduce((sum, ms, index) => sum + ms + pauseAfterMs("shadow", ms, index === lines.length - 1), 0);
}

describe("a story section's whole-dialogue recording with native lines", { timeout: 180_000 }, () => {
  it("is built once a line is published, served with Range, and goes when the line is unpublished", async () => {
    expect((await published())[SECTION_AUDIO]).toBeUndefined();
    const { admin, voice, take } = await publishedLine();
    const clips = await until(published, (read) => read[SECTION_AUDIO] !== undefined, "the recording's build");
    expect(clips[SECTION_AUDIO].voice).toBe(voice.id);
    const url: string = clips[SECTION_AUDIO].url;
    expect(url).toMatch(/^\/api\/studio\/dialogues\/[0-9a-f-]{36}$/);

    const whole = await t.request(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/webm");
    expect(whole.headers.get("cache-control")).toContain("immutable");
    const bytes = Buffer.from(await whole.arrayBuffer());
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    const part = await t.request(url, { headers: { range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(bytes.subarray(0, 100));
    const expected = await expectedMs(take.publishedUrl);
    expect(Math.abs((await audioDurationMs(bytes)) - expected)).toBeLessThan(100);

    // A second run with the same line published keeps the recording as it is.
    const [before] = await t.db.select().from(studioDialogue).where(eq(studioDialogue.chapterId, "chapter-1"));
    const worker = moduleWorkers(t.modules).find((each) => each.name === BUILD_DIALOGUE_JOB)!;
    await (worker.run as (data: typeof SECTION) => Promise<unknown>)(SECTION);
    expect(await t.db.select().from(studioDialogue)).toEqual([before]);
    expect(await dialogueFiles()).toEqual([before!.key]);

    const unpublished = await t.request("/api/studio/days/chapter-1/day-1/lines/line-selamat-pagi/clip", {
      method: "DELETE",
      cookie: admin.cookie,
    });
    expect(unpublished.status).toBe(200);
    await until(
      () => t.db.select().from(studioDialogue),
      (rows) => rows.length === 0,
      "the recording's removal",
    );
    expect((await published())[SECTION_AUDIO]).toBeUndefined();
    expect((await t.request(url)).status).toBe(404);
    await until(dialogueFiles, (keys) => keys.length === 0, "the recording's file removal");
  });

  it("goes when the voice of its only native line withdraws their consent", async () => {
    const { voice } = await publishedLine();
    await until(published, (read) => read[SECTION_AUDIO] !== undefined, "the recording's build");
    const withdrawn = await t.request("/api/voices/me/consent", { method: "DELETE", cookie: voice.cookie });
    expect(withdrawn.status).toBe(200);
    await t.settleEvents();
    await until(
      () => t.db.select().from(studioDialogue),
      (rows) => rows.length === 0,
      "the recording's removal",
    );
    expect((await published())[SECTION_AUDIO]).toBeUndefined();
  });
});
