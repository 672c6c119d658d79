import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ORPHAN_AGE_MS } from "#server/storage/orphan-sweep";
import { createS3Storage } from "#server/storage/storage-s3";
import { personAs } from "#tests/booked-session";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { startS3Server } from "#tests/s3-server";
import { processedTake, uploadTake, voiceNamed } from "#tests/studio-voices";
import { createTestApp } from "#tests/test-app";
import { studioFilesSweep } from "./studio.recording";

const s3 = await startS3Server();
const t = await createTestApp({ S3_URL: s3.url }, { course: FIXTURE_COURSE });
/** The bucket as the tests look into it, beside the app. */
const bucket = createS3Storage(s3.config);
const SPOKEN = readFileSync("tests/fixtures/takes/selamat-pagi.wav");

async function objectsOf(voiceId: string) {
  const keys: string[] = [];
  for await (const page of bucket.list(`studio/${voiceId}/`, new Date(Date.now() + 60_000))) keys.push(...page);
  return keys.sort();
}

describe("the studio's masters and clips in an S3-compatible bucket", { timeout: 60_000 }, () => {
  it("keeps a take's master and clip as objects, serves the published clip with ranges, and sweeps what no take holds", async () => {
    const admin = await personAs(t, "Admin");
    const tutor = await voiceNamed(t, admin, "Aina", "kuala-lumpur");
    const take = await processedTake(t, tutor.cookie, (await uploadTake(t, tutor.cookie, SPOKEN)).id);
    expect(take.state).toBe("in-review");
    const objects = await objectsOf(tutor.id);
    expect(objects).toHaveLength(2);
    expect(objects.some((key) => key === `studio/${tutor.id}/${take.id}.wav`)).toBe(true);
    const clipKey = objects.find((key) => key.endsWith(".webm"))!;
    expect(await bucket.read(`studio/${tutor.id}/${take.id}.wav`)).toEqual(SPOKEN);

    const approved = await t.request(`/api/studio/takes/${take.id}/review`, {
      method: "POST",
      cookie: admin.cookie,
      json: { decision: "approve" },
    });
    expect(approved.status).toBe(200);
    const clip = (await bucket.read(clipKey))!;
    const ranged = await t.request(`/api/studio/clips/${take.id}`, { headers: { range: "bytes=10-29" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 10-29/${clip.length}`);
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(clip.subarray(10, 30));

    // A file no take holds (a crash between the object and its row) goes once it is old enough.
    const orphan = `studio/${tutor.id}/00000000-0000-4000-8000-000000000000.wav`;
    await bucket.put(orphan, SPOKEN);
    await studioFilesSweep(bucket, t.db).run();
    expect(await objectsOf(tutor.id)).toContain(orphan);
    await studioFilesSweep(bucket, t.db, () => new Date(Date.now() + ORPHAN_AGE_MS + 60_000)).run();
    expect(await objectsOf(tutor.id)).toEqual(objects);
  });
});
