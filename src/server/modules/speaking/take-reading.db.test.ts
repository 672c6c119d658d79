import { readFileSync } from "node:fs";
import { eq, like } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { recording, storedFile, user } from "#server/db/schema";
import type { ErrorBody } from "#server/http/errors";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { paddedMp4, paddedWebm } from "#tests/fixtures/padded-takes";
import { createTestApp } from "#tests/test-app";
import { createTakeReader } from "./take-reader";

const t = await createTestApp({}, { course: FIXTURE_COURSE });
const WEBM = readFileSync("tests/fixtures/takes/chromium-2s.webm");
/** A stand-in worker whose reading of any take never ends (tests/fixtures/stalled-take-reader.mjs). */
const STALLED = new URL("../../../../tests/fixtures/stalled-take-reader.mjs", import.meta.url);

async function learner() {
  const { user: details, cookie } = await t.signedInUser();
  const [row] = await t.db
    .update(user)
    .set({ role: "Student" })
    .where(eq(user.email, details.email))
    .returning({ id: user.id });
  return { id: row!.id, cookie };
}

async function upload(app: Pick<typeof t.app, "request">, cookie: string, bytes: Uint8Array, type = "audio/webm") {
  const form = new FormData();
  form.set("chapterId", "chapter-1");
  form.set("dayId", "day-1");
  form.set("lineId", "line-selamat-pagi");
  form.set("take", new File([new Uint8Array(bytes)], "take.webm", { type }));
  return t.requestTo(app)("/api/speaking/takes", { method: "POST", cookie, body: form });
}

async function stored(userId: string) {
  const rows = await t.db.select().from(recording).where(eq(recording.userId, userId));
  const files = await t.db
    .select()
    .from(storedFile)
    .where(like(storedFile.key, `takes/${userId}/%`));
  return { rows: rows.length, files: files.length };
}

const errorOf = async (response: Response) => ({ status: response.status, ...((await response.json()) as ErrorBody) });

describe("reading an uploaded take", () => {
  it("refuses a padded WebM or MP4 with a clear message and stores nothing, and still takes a real take", async () => {
    const me = await learner();
    const padded = {
      status: 400,
      error: {
        code: "TAKE_TOO_MANY_PARTS",
        message:
          "This recording is not laid out as a browser records one (it is padded). Please record the line again.",
      },
    };
    expect(await errorOf(await upload(t.app, me.cookie, paddedWebm()))).toEqual(padded);
    expect(await errorOf(await upload(t.app, me.cookie, paddedMp4(), "audio/mp4"))).toEqual(padded);
    expect(await stored(me.id)).toEqual({ rows: 0, files: 0 });

    const accepted = await upload(t.app, me.cookie, WEBM);
    expect(accepted.status).toBe(201);
    expect(await stored(me.id)).toEqual({ rows: 1, files: 1 });
  });

  it("refuses a take whose reading outruns the reader's budget, and stores nothing", async () => {
    const me = await learner();
    const stalled = createTakeReader({ script: STALLED, budgetMs: 100 });
    const response = await upload(t.appWith({ takeReader: stalled }), me.cookie, WEBM).finally(() => stalled.close());
    expect(await errorOf(response)).toEqual({
      status: 400,
      error: { code: "TAKE_TOO_SLOW", message: "This recording took too long to read. Please record the line again." },
    });
    expect(await stored(me.id)).toEqual({ rows: 0, files: 0 });
  });

  it("answers /healthz while a take is being read, since the reading is off the event loop", async () => {
    const me = await learner();
    const stalled = createTakeReader({ script: STALLED, budgetMs: 600_000 });
    const app = t.appWith({ takeReader: stalled });
    let settled = false;
    const pending = upload(app, me.cookie, WEBM).finally(() => {
      settled = true;
    });
    // The worker has the take and will never finish it by itself.
    await vi.waitFor(() => expect(stalled.reading).toBe(1), { timeout: 15_000 });
    const health = await app.request("/healthz");
    expect(health.status).toBe(200);
    expect(settled).toBe(false);

    // A reader closing (the server stopping) answers the take it was reading: nothing stored.
    await stalled.close();
    expect(await errorOf(await pending)).toEqual({
      status: 503,
      error: { code: "UNAVAILABLE", message: "The server is restarting. Please send the recording again." },
    });
    expect(await stored(me.id)).toEqual({ rows: 0, files: 0 });
  });
});
