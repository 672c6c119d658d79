import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { storedFile, studioTake } from "#server/db/schema";
import { personAs } from "#tests/booked-session";
import type { AppInProcess } from "#tests/web/app-in-process";

/**
 * Publishing through the voice studio's API on the app in process (tests/web/app-in-process.ts), as
 * the studio's own tests do (src/server/modules/studio/studio.db.test.ts): what a page then reads
 * from GET /api/studio/published is the server's own answer.
 */

const WAV = readFileSync("tests/fixtures/takes/selamat-pagi.wav");
const WEBM = readFileSync("tests/fixtures/takes/chromium-2s.webm");

type Person = Awaited<ReturnType<typeof personAs>>;

/** A Tutor an Admin named a voice with this name and accent, who consented: they may record. */
export async function voiceNamed(app: AppInProcess, admin: Person, creditedName: string, accent: string) {
  const tutor = await personAs(app.t, "Tutor");
  const granted = await app.t.request("/api/voices", {
    method: "POST",
    cookie: admin.cookie,
    json: { userId: tutor.id, creditedName, accent },
  });
  expect(granted.status).toBe(201);
  expect((await app.t.request("/api/voices/me/consent", { method: "POST", cookie: tutor.cookie })).status).toBe(200);
  return tutor;
}

/**
 * A take of a line by `voice`, uploaded, made ready for review as its job would (its clip stored),
 * and approved by `reviewer`: published. Its take id.
 */
export async function publishLine(
  app: AppInProcess,
  { voice, reviewer }: { voice: Person; reviewer: Person },
  line: { chapterId: string; dayId: string; lineId: string },
): Promise<string> {
  const uploaded = await app.t.request(`/api/studio/days/${line.chapterId}/${line.dayId}/lines/${line.lineId}/takes`, {
    method: "POST",
    cookie: voice.cookie,
    // The bytes themselves: the page's Blob here is jsdom's, which the app in process cannot read.
    headers: { "content-type": "audio/wav" },
    body: new Uint8Array(WAV),
  });
  expect(uploaded.status, await uploaded.clone().text()).toBe(202);
  const { take } = await uploaded.json();
  const clipKey = `studio/${voice.id}/${take.id}-test.webm`;
  await app.t.db.insert(storedFile).values({ key: clipKey, contentType: "audio/webm", data: WEBM });
  await app.t.db
    .update(studioTake)
    .set({ state: "in-review", clipKey, clipBytes: WEBM.length, durationMs: 1200, checks: [] })
    .where(eq(studioTake.id, take.id));
  const approved = await app.t.request(`/api/studio/takes/${take.id}/review`, {
    method: "POST",
    cookie: reviewer.cookie,
    json: { decision: "approve" },
  });
  expect(approved.status, await approved.clone().text()).toBe(200);
  return take.id as string;
}

/** Takes a line's published clip down, as its voice may: espeak again. */
export async function unpublishLine(
  app: AppInProcess,
  voice: Person,
  line: { chapterId: string; dayId: string; lineId: string },
) {
  const response = await app.t.request(`/api/studio/days/${line.chapterId}/${line.dayId}/lines/${line.lineId}/clip`, {
    method: "DELETE",
    cookie: voice.cookie,
  });
  expect(response.status, await response.clone().text()).toBe(200);
}
