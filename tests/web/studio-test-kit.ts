import { beforeEach } from "vitest";
import type { Role } from "#course/roles";
import type { StudioTakeState } from "#course/studio";
import type { VoiceAccent } from "#course/voices";
import { studioClip, studioTake, voiceConsent, voice as voiceTable } from "#server/db/schema";
import type { TakeCheck } from "#server/modules/studio/studio.contract";
import type { AppInProcess, SignedInUser } from "./app-in-process";

/**
 * Set-up for the voice studio's pages against the app in process (tests/web/app-in-process.ts):
 * voices as an Admin would grant them and as they consent, and their takes of the fixture course's
 * lines stored as the studio's job leaves them, so a page test waits for no processing.
 */

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
