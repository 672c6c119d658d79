import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Role } from "#course/roles";
import { recording, storedFile, user } from "#server/db/schema";
import type { AccountExport } from "#server/modules/account/account.contract";
import { ORPHAN_AGE_MS } from "#server/storage/orphan-sweep";
import { createS3Storage } from "#server/storage/storage-s3";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { startS3Server } from "#tests/s3-server";
import { createTestApp } from "#tests/test-app";
import type { TakeSaved } from "./speaking.contract";
import { createSpeakingService } from "./speaking.service";
import { orphanTakesJobs } from "./take-files";

const s3 = await startS3Server();
const t = await createTestApp({ S3_URL: s3.url }, { course: FIXTURE_COURSE });
/** The bucket as the tests look into it, beside the app. */
const bucket = createS3Storage(s3.config);

const WEBM = readFileSync("tests/fixtures/takes/chromium-2s.webm");
const DAY_1 = { chapterId: "chapter-1", dayId: "day-1" };

async function learner(role: Role = "Student") {
  const { user: details, cookie } = await t.signedInUser();
  const [row] = await t.db.update(user).set({ role }).where(eq(user.email, details.email)).returning({ id: user.id });
  return { id: row!.id, cookie, password: details.password };
}

function upload(cookie: string, { lineId = "line-selamat-pagi", dayId = "day-1" } = {}) {
  const form = new FormData();
  form.set("chapterId", "chapter-1");
  form.set("dayId", dayId);
  form.set("lineId", lineId);
  form.set("take", new File([new Uint8Array(WEBM)], "take.webm", { type: "audio/webm;codecs=opus" }));
  return t.request("/api/speaking/takes", { method: "POST", cookie, body: form });
}

/** The learner's objects in the bucket, whatever their age. */
async function objectsOf(userId: string) {
  const keys: string[] = [];
  for await (const page of bucket.list(`takes/${userId}/`, new Date(Date.now() + 60_000))) keys.push(...page);
  return keys.sort();
}

/** The speaking module's sweep, run as its job runs, on a clock `ahead` of now. */
const sweepAt = (ahead: number) => orphanTakesJobs(bucket, t.db, () => new Date(Date.now() + ahead))[0]!.run();

describe("takes in an S3-compatible bucket", () => {
  it("keeps a take as an object, not a row, and plays it to its owner and staff, whole or a range at a time", async () => {
    const me = await learner();
    const response = await upload(me.cookie);
    expect(response.status).toBe(201);
    const { take } = (await response.json()) as TakeSaved;
    expect(await objectsOf(me.id)).toEqual([`takes/${me.id}/${take.id}.webm`]);
    expect(
      await t.db
        .select()
        .from(storedFile)
        .where(eq(storedFile.key, `takes/${me.id}/${take.id}.webm`)),
    ).toEqual([]);

    const whole = await t.request(take.audio, { cookie: me.cookie });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("audio/webm");
    expect(whole.headers.get("content-length")).toBe(String(WEBM.length));
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("cache-control")).toBe("no-store");
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(WEBM);

    const part = await t.request(take.audio, { cookie: me.cookie, headers: { range: "bytes=100-1099" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-1099/${WEBM.length}`);
    expect(part.headers.get("content-length")).toBe("1000");
    expect(Buffer.from(await part.arrayBuffer())).toEqual(WEBM.subarray(100, 1100));

    const tail = await t.request(take.audio, { cookie: me.cookie, headers: { range: "bytes=-200" } });
    expect(tail.status).toBe(206);
    expect(tail.headers.get("content-range")).toBe(`bytes ${WEBM.length - 200}-${WEBM.length - 1}/${WEBM.length}`);
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(WEBM.subarray(WEBM.length - 200));

    const past = await t.request(take.audio, { cookie: me.cookie, headers: { range: `bytes=${WEBM.length}-` } });
    expect(past.status).toBe(416);
    expect(past.headers.get("content-range")).toBe(`bytes */${WEBM.length}`);

    const other = await learner();
    expect((await t.request(take.audio, { cookie: other.cookie, headers: { range: "bytes=0-99" } })).status).toBe(404);
    expect((await t.request(take.audio)).status).toBe(401);
    const tutor = await learner("Tutor");
    const heard = await t.request(take.audio, { cookie: tutor.cookie, headers: { range: "bytes=0-9" } });
    expect(Buffer.from(await heard.arrayBuffer())).toEqual(WEBM.subarray(0, 10));
  });

  it("answers HEAD with the headers alone, and plays the take after", async () => {
    const me = await learner();
    const { take } = (await (await upload(me.cookie)).json()) as TakeSaved;
    for (let i = 0; i < 3; i += 1) {
      const head = await t.request(take.audio, { method: "HEAD", cookie: me.cookie });
      expect(head.status).toBe(200);
      expect(head.headers.get("content-length")).toBe(String(WEBM.length));
      expect(await head.text()).toBe("");
    }
    const played = await t.request(take.audio, { cookie: me.cookie, headers: { range: "bytes=0-99" } });
    expect(Buffer.from(await played.arrayBuffer())).toEqual(WEBM.subarray(0, 100));
  });

  it("removes the object of a take recorded again once the new one is committed", async () => {
    const me = await learner();
    const first = (await (await upload(me.cookie)).json()) as TakeSaved;
    const second = (await (await upload(me.cookie)).json()) as TakeSaved;
    expect(await objectsOf(me.id)).toEqual([`takes/${me.id}/${second.take.id}.webm`]);
    expect((await t.request(first.take.audio, { cookie: me.cookie })).status).toBe(404);
  });

  it("leaves no object behind a take its transaction refused", async () => {
    const me = await learner();
    const locked = await upload(me.cookie, { dayId: "day-2", lineId: "card-tandas" });
    expect(locked.status).toBe(409);
    expect(await objectsOf(me.id)).toEqual([]);
    expect(await t.db.select().from(recording).where(eq(recording.userId, me.id))).toEqual([]);
  });

  it("says the recording could not be kept when the bucket is unreachable, and writes nothing", async () => {
    const me = await learner();
    const unreachable = createS3Storage({ ...s3.config, endpoint: "http://127.0.0.1:9" });
    const speaking = createSpeakingService({
      db: t.db,
      course: t.course,
      storage: unreachable,
      progress: t.modules.progress.service,
      events: t.modules.events,
    });
    const saving = speaking.saveTake({ id: me.id, role: "Student" } as never, { ...DAY_1, lineId: "card-pagi" }, WEBM);
    await expect(saving).rejects.toMatchObject({ status: 503, code: "STORAGE_UNAVAILABLE" });
    expect(await t.db.select().from(recording).where(eq(recording.userId, me.id))).toEqual([]);
    unreachable.close();
  });

  it("removes the objects of takes pruned to fit the learner's space", async () => {
    const me = await learner();
    const small = createSpeakingService({
      db: t.db,
      course: t.course,
      storage: bucket,
      progress: t.modules.progress.service,
      events: t.modules.events,
      quotaBytes: WEBM.length * 2 + 10,
    });
    const saved = [];
    for (const lineId of ["card-pagi", "vocab-price", "narration"]) {
      saved.push((await small.saveTake({ id: me.id, role: "Student" } as never, { ...DAY_1, lineId }, WEBM)).take.id);
    }
    expect(await objectsOf(me.id)).toEqual(
      saved
        .slice(1)
        .map((id) => `takes/${me.id}/${id}.webm`)
        .sort(),
    );
  });

  it("exports the takes' audio from the bucket, and removes their objects once the account is gone", async () => {
    const me = await learner();
    const { take } = (await (await upload(me.cookie)).json()) as TakeSaved;
    const exported = (await (await t.request("/api/account/export", { cookie: me.cookie })).json()) as AccountExport;
    expect(exported.recordings).toEqual([
      expect.objectContaining({ id: take.id, audio: `data:audio/webm;base64,${WEBM.toString("base64")}` }),
    ]);

    const deleted = await t.request("/api/account", {
      method: "DELETE",
      cookie: me.cookie,
      json: { password: me.password },
    });
    expect(deleted.status).toBe(200);
    // The rows went with the account in its transaction, the objects once it committed.
    expect(await objectsOf(me.id)).toEqual([]);
  });

  it("sweeps a deleted account's objects that could not be removed at once", async () => {
    const me = await learner();
    await upload(me.cookie);
    const left = `takes/${me.id}/${randomUUID()}.webm`;
    // What the account's deletion leaves when the bucket fails it after the commit.
    await t.request("/api/account", { method: "DELETE", cookie: me.cookie, json: { password: me.password } });
    await bucket.put(left, WEBM);
    await sweepAt(ORPHAN_AGE_MS + 60_000);
    expect(await objectsOf(me.id)).toEqual([]);
  });

  it("sweeps objects no take holds once they are old enough, and never a take's", async () => {
    const me = await learner();
    const { take } = (await (await upload(me.cookie)).json()) as TakeSaved;
    // What a crash between the object's put and its row's commit leaves.
    const orphan = `takes/${me.id}/${randomUUID()}.webm`;
    await bucket.put(orphan, WEBM);

    expect(t.modules.speaking.jobs?.map((job) => job.name)).toEqual(["takes' orphan files swept"]);
    await sweepAt(0);
    expect(await objectsOf(me.id)).toHaveLength(2);
    await sweepAt(ORPHAN_AGE_MS + 60_000);
    expect(await objectsOf(me.id)).toEqual([`takes/${me.id}/${take.id}.webm`]);
    expect((await t.request(take.audio, { cookie: me.cookie })).status).toBe(200);
  });
});
