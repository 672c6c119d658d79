import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { beforeEach, expect } from "vitest";
import type { Role } from "#course/roles";
import type { StudioTakeState } from "#course/studio";
import type { VoiceAccent } from "#course/voices";
import { storedFile, studioClip, studioTake, voiceConsent, voice as voiceTable } from "#server/db/schema";
import type { TakeCheck } from "#server/modules/studio/studio.contract";
import type { personAs } from "#tests/booked-session";
import { voiceNamed as namedVoice } from "#tests/studio-voices";
import type { AppInProcess, SignedInUser } from "#tests/web/app-in-process";

/**
 * Publishing through the voice studio's API on the app in process (tests/web/app-in-process.ts), as
 * the studio's own tests do (src/server/modules/studio/studio.db.test.ts): what a page then reads
 * from GET /api/studio/published is the server's own answer. For the studio's own page, voices and
 * their takes in any state are also stored as an Admin's grant and the studio's job leave them, so a
 * page test waits for no processing.
 */

const WAV = readFileSync("tests/fixtures/takes/selamat-pagi.wav");
const WEBM = readFileSync("tests/fixtures/takes/chromium-2s.webm");

type Person = Awaited<ReturnType<typeof personAs>>;

/** A Tutor an Admin named a voice with this name and accent, who consented: they may record. */
export const voiceNamed = (app: AppInProcess, admin: Person, creditedName: string, accent: string) =>
  namedVoice(app.t, admin, creditedName, accent);

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

/** Every test of the file starts with no take (and so no published clip). Call once, after connectApp. */
export function startEachTestWithNoTakes(app: AppInProcess) {
  beforeEach(async () => {
    await app.t.db.delete(studioTake);
  });
}

/** Makes `person` a voice credited as `creditedName`, who consented (may record) unless told. */
export async function makeVoice(
  app: AppInProcess,
  person: { id: string },
  {
    creditedName,
    accent = "kelantan",
    consent = true,
  }: { creditedName: string; accent?: VoiceAccent; consent?: boolean },
) {
  await app.t.db.insert(voiceTable).values({ userId: person.id, creditedName, accent });
  if (consent) await app.t.db.insert(voiceConsent).values({ userId: person.id, version: "1" });
}

/** Another member of staff, never signed in here, who is a voice that may record. */
export async function otherVoice(
  app: AppInProcess,
  creditedName: string,
  role: Role = "Tutor",
  accent: VoiceAccent = "johor",
): Promise<SignedInUser> {
  const person = await app.createUser(role, { firstName: creditedName });
  await makeVoice(app, person, { creditedName, accent });
  return person;
}

/**
 * A take of a line of chapter 1, day 1 by `voiceId` in `state`, as the studio's job and a reviewer
 * leave it; a published one is also the line's clip (`speaker` as the course names it). Its id.
 */
export async function storeTake(
  app: AppInProcess,
  {
    voiceId,
    lineId,
    state,
    checks = [],
    reason = null,
    reviewedBy = null,
    createdAt = new Date(),
    speaker = null,
  }: {
    voiceId: string;
    lineId: string;
    state: StudioTakeState;
    checks?: TakeCheck[];
    reason?: string | null;
    reviewedBy?: string | null;
    createdAt?: Date;
    speaker?: string | null;
  },
): Promise<string> {
  const line = { chapterId: "chapter-1", dayId: "day-1", lineId };
  const processed = state !== "processing" && state !== "needs-fix";
  const [row] = await app.t.db
    .insert(studioTake)
    .values({
      ...line,
      voiceId,
      state,
      masterKey: `studio/${voiceId}/${lineId}-${createdAt.getTime()}.wav`,
      masterBytes: 48_000,
      checks,
      reason,
      reviewedBy,
      reviewedAt: reviewedBy ? new Date() : null,
      createdAt,
      clipKey: processed ? `studio/${voiceId}/${lineId}-${createdAt.getTime()}.webm` : null,
      durationMs: processed ? 1400 : null,
      integratedLufs: processed ? -16.1 : null,
      truePeakDbtp: processed ? -1.4 : null,
    })
    .returning({ id: studioTake.id });
  if (state === "published") {
    await app.t.db.insert(studioClip).values({ ...line, takeId: row!.id, speaker, voiceId, publishedBy: reviewedBy });
  }
  return row!.id;
}
