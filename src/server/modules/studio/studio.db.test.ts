import { readFileSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { courseAudioPath } from "#course/course";
import { publishedClipPath } from "#course/studio";
import { eventOutbox, storedFile, studioClip, studioTake } from "#server/db/schema";
import { personAs } from "#tests/booked-session";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { voiceNamed as namedVoice } from "#tests/studio-voices";
import { createTestApp } from "#tests/test-app";
import { MAY_NOT_RECORD } from "./studio.recording";
import { NOT_IN_REVIEW, NOT_YOUR_OWN, oneVoicePerSpeaker, VOICE_WITHDRAWN } from "./studio.review";
import { STUDIO_FOR_VOICES } from "./studio.service";

const t = await createTestApp({}, { course: FIXTURE_COURSE });
const WAV = readFileSync("tests/fixtures/takes/selamat-pagi.wav");
const WEBM = readFileSync("tests/fixtures/takes/chromium-2s.webm");
const DAY = "/api/studio/days/chapter-1/day-1";

type Person = Awaited<ReturnType<typeof personAs>>;

/** A Tutor an Admin named a voice, who consented: they may record. */
const voiceNamed = (admin: Person, creditedName: string) => namedVoice(t, admin, creditedName);

const upload = (cookie: string | undefined, lineId: string, body: Buffer, type = "audio/wav", query = "") =>
  t.request(`${DAY}/lines/${lineId}/takes${query}`, {
    method: "POST",
    cookie,
    body: new Blob([new Uint8Array(body)], { type }),
  });

/** A take of `lineId` by `voice` through the API, then made ready for review as its job would (its clip stored). */
async function takeInReview(voice: Person, lineId: string): Promise<string> {
  const response = await upload(voice.cookie, lineId, WAV);
  expect(response.status, await response.clone().text()).toBe(202);
  const { take } = await response.json();
  const clipKey = `studio/${voice.id}/${take.id}-test.webm`;
  await t.db.insert(storedFile).values({ key: clipKey, contentType: "audio/webm", data: WEBM });
  await t.db
    .update(studioTake)
    .set({ state: "in-review", clipKey, clipBytes: WEBM.length, durationMs: 1200, checks: [] })
    .where(eq(studioTake.id, take.id));
  return take.id as string;
}

const review = (cookie: string, takeId: string, json: unknown) =>
  t.request(`/api/studio/takes/${takeId}/review`, { method: "POST", cookie, json });
const published = async () => (await (await t.request("/api/studio/published")).json()).clips;
/** The published clips credited to `voice` (the file's other tests publish too). */
const publishedOf = async (voice: Person) =>
  Object.entries(await published()).filter(([, clip]) => (clip as { voice: string }).voice === voice.id);
const stateOf = async (takeId: string) =>
  (await t.db.select({ state: studioTake.state }).from(studioTake).where(eq(studioTake.id, takeId)))[0]?.state;

describe("the studio", () => {
  it("is for voices who may record and for Admins: a learner and a Tutor who is no voice are refused", async () => {
    const admin = await personAs(t, "Admin");
    const voice = await voiceNamed(admin, "Aina");
    const [learner, tutor] = [await personAs(t), await personAs(t, "Tutor")];
    for (const person of [learner, tutor]) {
      const response = await t.request(DAY, { cookie: person.cookie });
      expect(response.status).toBe(403);
      expect((await response.json()).error.message).toBe(STUDIO_FOR_VOICES);
    }
    const day = await (await t.request(DAY, { cookie: voice.cookie })).json();
    expect(day).toMatchObject({ chapterId: "chapter-1", dayId: "day-1", mayRecord: true, mayReview: true });
    const line = day.lines.find((each: { lineId: string }) => each.lineId === "line-selamat-pagi");
    expect(line).toMatchObject({
      state: "synthetic",
      syntheticUrl: courseAudioPath("chapter-1", "day-1", "line-selamat-pagi"),
      published: null,
      latest: null,
    });
    const forAdmin = await (await t.request(DAY, { cookie: admin.cookie })).json();
    expect(forAdmin).toMatchObject({ mayRecord: false, mayReview: true });
    // An Admin reviews but is no voice: they cannot record.
    const refused = await upload(admin.cookie, "line-selamat-pagi", WAV);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.message).toBe(MAY_NOT_RECORD);
  });

  it("takes a WAV master of a line into processing with its trim, and refuses what is not one", async () => {
    const voice = await voiceNamed(await personAs(t, "Admin"), "Aina");
    const before = await t.db.select().from(studioTake);
    expect((await upload(voice.cookie, "line-selamat-pagi", WEBM, "audio/webm")).status).toBe(415);
    expect((await upload(voice.cookie, "line-selamat-pagi", WEBM)).status).toBe(422);
    expect((await upload(voice.cookie, "no-such-line", WAV)).status).toBe(404);
    const badTrim = await upload(voice.cookie, "line-selamat-pagi", WAV, "audio/wav", "?trimStartMs=900&trimEndMs=100");
    expect(badTrim.status).toBe(400);
    expect(await t.db.select().from(studioTake)).toEqual(before);

    const response = await upload(
      voice.cookie,
      "line-selamat-pagi",
      WAV,
      "audio/wav",
      "?trimStartMs=100&trimEndMs=2300",
    );
    expect(response.status).toBe(202);
    const { take } = await response.json();
    expect(take).toMatchObject({ state: "processing", lineId: "line-selamat-pagi", voice: { creditedName: "Aina" } });
    const [row] = await t.db.select().from(studioTake).where(eq(studioTake.id, take.id));
    expect(row).toMatchObject({ trimStartMs: 100, trimEndMs: 2300, masterBytes: WAV.length, voiceId: voice.id });
    // The master is kept whole, and heard by reviewers with ranges.
    const master = await t.request(`/api/studio/takes/${take.id}/audio?form=master`, {
      cookie: voice.cookie,
      headers: { range: "bytes=0-3" },
    });
    expect(master.status).toBe(206);
    expect(master.headers.get("content-type")).toBe("audio/wav");
    expect(Buffer.from(await master.arrayBuffer()).toString("ascii")).toBe("RIFF");
  });

  it("publishes a take another voice approves, replacing the clip before it, and serves it to anyone, immutable", async () => {
    const admin = await personAs(t, "Admin");
    const [aina, hafiz] = [await voiceNamed(admin, "Aina"), await voiceNamed(admin, "Hafiz")];
    const first = await takeInReview(aina, "card-pagi");
    const own = await review(aina.cookie, first, { decision: "approve" });
    expect(own.status).toBe(403);
    expect((await own.json()).error.message).toBe(NOT_YOUR_OWN);
    expect((await review(hafiz.cookie, first, { decision: "approve" })).status).toBe(200);
    expect((await review(hafiz.cookie, first, { decision: "approve" })).status).toBe(409);

    const path = courseAudioPath("chapter-1", "day-1", "card-pagi");
    expect((await published())[path]).toEqual({ url: publishedClipPath(first), voice: aina.id });
    const clip = await t.request(publishedClipPath(first), { headers: { range: "bytes=0-99" } });
    expect(clip.status).toBe(206);
    expect(clip.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(Buffer.from(await clip.arrayBuffer())).toEqual(WEBM.subarray(0, 100));

    // A newer take by the same voice, approved by an Admin, replaces it under a new URL.
    const second = await takeInReview(aina, "card-pagi");
    expect((await review(admin.cookie, second, { decision: "approve" })).status).toBe(200);
    expect((await published())[path].url).toBe(publishedClipPath(second));
    expect(await stateOf(first)).toBe("replaced");
    expect((await t.request(publishedClipPath(first))).status).toBe(404);
    const list = await t.request("/api/studio/published");
    const etag = list.headers.get("etag")!;
    expect(list.headers.get("cache-control")).toBe("no-cache");
    expect((await t.request("/api/studio/published", { headers: { "if-none-match": etag } })).status).toBe(304);
  });

  it("sends a rejected take back with the reason, and needs one", async () => {
    const admin = await personAs(t, "Admin");
    const aina = await voiceNamed(admin, "Aina");
    const takeId = await takeInReview(aina, "line-selamat-pagi");
    const noReason = await review(admin.cookie, takeId, { decision: "reject", reason: "  " });
    expect(noReason.status).toBe(400);
    expect(await stateOf(takeId)).toBe("in-review");
    const response = await review(admin.cookie, takeId, { decision: "reject", reason: "Say 'pagi' more softly." });
    expect((await response.json()).take).toMatchObject({ state: "rejected", reason: "Say 'pagi' more softly." });
    const day = await (await t.request(DAY, { cookie: aina.cookie })).json();
    const line = day.lines.find((each: { lineId: string }) => each.lineId === "line-selamat-pagi");
    expect(line.state).toBe("rejected");
    expect((await review(admin.cookie, takeId, { decision: "approve" })).status).toBe(409);
    expect((await (await review(admin.cookie, takeId, { decision: "approve" })).json()).error.message).toBe(
      NOT_IN_REVIEW,
    );
  });

  it("keeps one voice per character within a day", async () => {
    const admin = await personAs(t, "Admin");
    const [aina, hafiz] = [await voiceNamed(admin, "Aina"), await voiceNamed(admin, "Hafiz")];
    const day = await (await t.request(DAY, { cookie: aina.cookie })).json();
    const spoken = day.lines.filter((line: { speaker: string | null }) => line.speaker !== null);
    const speaker = spoken[0].speaker as string;
    const [a, b] = spoken.filter((line: { speaker: string }) => line.speaker === speaker);
    expect(b, `the fixture day has two lines of ${speaker}`).toBeDefined();
    expect((await review(admin.cookie, await takeInReview(aina, a.lineId), { decision: "approve" })).status).toBe(200);
    const other = await takeInReview(hafiz, b.lineId);
    const refused = await review(admin.cookie, other, { decision: "approve" });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toBe(oneVoicePerSpeaker(speaker));
    expect(await stateOf(other)).toBe("in-review");
  });

  it("takes a voice's clips down when their consent is withdrawn, and publishes none of theirs after", async () => {
    const admin = await personAs(t, "Admin");
    const aina = await voiceNamed(admin, "Aina");
    const takeId = await takeInReview(aina, "card-pagi");
    expect((await review(admin.cookie, takeId, { decision: "approve" })).status).toBe(200);
    const waiting = await takeInReview(aina, "line-selamat-pagi");
    expect((await t.request("/api/voices/me/consent", { method: "DELETE", cookie: aina.cookie })).status).toBe(200);
    expect(await publishedOf(aina)).toHaveLength(1);
    await t.settleEvents();
    expect(await publishedOf(aina)).toEqual([]);
    expect(await stateOf(takeId)).toBe("unpublished");
    expect(await t.db.select().from(studioClip).where(eq(studioClip.voiceId, aina.id))).toEqual([]);
    const refused = await review(admin.cookie, waiting, { decision: "approve" });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toBe(VOICE_WITHDRAWN);
    const events = await t.db
      .select({ payload: eventOutbox.payload })
      .from(eventOutbox)
      .where(and(eq(eventOutbox.name, "studio.clips-unpublished")));
    expect(events.map((event) => event.payload)).toContainEqual({ takeIds: [takeId] });
  });

  it("lets a clip's voice or an Admin unpublish it, not another voice", async () => {
    const admin = await personAs(t, "Admin");
    const [aina, hafiz] = [await voiceNamed(admin, "Aina"), await voiceNamed(admin, "Hafiz")];
    const takeId = await takeInReview(aina, "card-pagi");
    expect((await review(hafiz.cookie, takeId, { decision: "approve" })).status).toBe(200);
    const clipPath = `${DAY}/lines/card-pagi/clip`;
    expect((await t.request(clipPath, { method: "DELETE", cookie: hafiz.cookie })).status).toBe(403);
    expect(await stateOf(takeId)).toBe("published");
    const response = await t.request(clipPath, { method: "DELETE", cookie: aina.cookie });
    expect((await response.json()).take.state).toBe("unpublished");
    expect(await publishedOf(aina)).toEqual([]);
    expect((await t.request(clipPath, { method: "DELETE", cookie: admin.cookie })).status).toBe(404);
  });

  it("counts each day's native lines, and exports a voice's takes", async () => {
    const admin = await personAs(t, "Admin");
    const aina = await voiceNamed(admin, "Aina");
    const dayOne = async () => (await (await t.request("/api/studio/days", { cookie: admin.cookie })).json()).days[0];
    const before = await dayOne();
    expect(before).toMatchObject({
      chapterId: "chapter-1",
      dayId: "day-1",
      title: "Chapter 1, Day 1: Greetings and a drink",
    });
    const takeId = await takeInReview(aina, "vocab-price");
    await takeInReview(aina, "line-selamat-pagi");
    expect((await review(admin.cookie, takeId, { decision: "approve" })).status).toBe(200);
    const after = await dayOne();
    expect(after.published - before.published).toBe(1);
    expect(after.lines).toBe(before.lines);
    expect(after.published).toBeLessThanOrEqual(after.lines);
    const exported = await (await t.request("/api/account/export", { cookie: aina.cookie })).json();
    expect(exported.studioTakes.map((take: { lineId: string; state: string }) => [take.lineId, take.state])).toEqual([
      ["vocab-price", "published"],
      ["line-selamat-pagi", "in-review"],
    ]);
  });
});
