import { on } from "#server/events/events";
import { forbidden, HttpError, notFound } from "#server/http/errors";
import { voicesEvents } from "#server/modules/voices/voices.contract";
import type { ByteRange } from "#server/storage/storage";
import { type StudioTake, studioEvents, type TakeReview } from "./studio.contract";
import type { StudioDeps, StudioUser } from "./studio.deps";
import { linesOfTakes, sendDialogueBuilds } from "./studio.dialogues";
import { courseLine } from "./studio.lines";
import { createStudioRepository, type LineKey } from "./studio.repository";
import type { StudioViews } from "./studio.service";

/** What a reviewer is told about their own take (403). */
export const NOT_YOUR_OWN = "Another voice or an Admin reviews a take: not the voice who recorded it.";
/** A take that is not waiting for review (409). */
export const NOT_IN_REVIEW =
  "This take is not waiting for review: it was reviewed already, or replaced by a newer take.";
/** A take whose voice may no longer record (their consent withdrawn, their grant or role gone) (409). */
export const VOICE_WITHDRAWN = "This take's voice can no longer be published: their consent or grant has ended.";

/** One voice per speaker within a day: what a reviewer is told when another voice already speaks for them (409). */
export const oneVoicePerSpeaker = (speaker: string) =>
  `${speaker}'s lines on this day are already published in another voice: a day keeps one voice per character. Unpublish those first, or have the same voice record this line.`;

/**
 * Review and publishing (docs/decisions/078-voice-studio.md): another voice or an Admin approves a
 * take, which publishes it at once as its line's clip (replacing the one before), or rejects it with
 * the reason its voice reads. A published clip comes down when its voice or an Admin unpublishes it,
 * and all of a voice's clips when their consent ends (`voices.consent-withdrawn`): espeak again.
 * Each change sends, in its transaction, the job that rebuilds the whole-dialogue recordings of the
 * sections holding the line (studio.dialogues.ts).
 */
export function createStudioReview(deps: StudioDeps, views: StudioViews) {
  const { db, course, storage, voices, events } = deps;
  const takes = createStudioRepository(db);

  async function described(takeId: string): Promise<StudioTake> {
    const row = await takes.take(takeId);
    return (await views.described([row!])).get(takeId)!;
  }

  return {
    /** Approves (publishes) or rejects a take waiting for review. */
    async review(user: StudioUser, takeId: string, decision: TakeReview): Promise<StudioTake> {
      await views.reviewer(user);
      await db.transaction(async (tx) => {
        const take = await takes.lockTake(tx, takeId);
        if (!take) throw notFound("There is no such take.");
        if (take.voiceId === user.id) throw forbidden(NOT_YOUR_OWN);
        if (take.state !== "in-review") throw new HttpError(409, "NOT_IN_REVIEW", NOT_IN_REVIEW);
        if (decision.decision === "reject") {
          await takes.reject(tx, take.id, user.id, decision.reason);
          return;
        }
        // The consent is held until this commits: a withdrawal waits, then its handler takes this clip down.
        if (!(await voices.mayRecordIn(tx, take.voiceId))) throw new HttpError(409, "VOICE_WITHDRAWN", VOICE_WITHDRAWN);
        const speaker = courseLine(course, take)?.speaker ?? null;
        if (speaker && (await takes.otherVoicesOfSpeaker(tx, take, speaker, take.voiceId)).length > 0) {
          throw new HttpError(409, "ONE_VOICE_PER_SPEAKER", oneVoicePerSpeaker(speaker));
        }
        await takes.publish(tx, take, { speaker, reviewerId: user.id });
        await events.emit(tx, studioEvents.published, { takeId: take.id });
        await sendDialogueBuilds(deps, tx, [take]);
      });
      return described(takeId);
    },

    /** Takes a line's clip down (its voice or an Admin): learners hear espeak again at once. */
    async unpublish(user: StudioUser, line: LineKey): Promise<StudioTake> {
      await views.reviewer(user);
      const takeId = await db.transaction(async (tx) => {
        const clip = await takes.lockClip(tx, line);
        if (!clip) throw notFound("This line has no published clip.");
        if (clip.voiceId !== user.id && !views.isAdmin(user)) {
          throw forbidden("Only the clip's voice or an Admin can unpublish it.");
        }
        await takes.unpublish(tx, { line });
        await events.emit(tx, studioEvents.unpublished, { takeIds: [clip.takeId] });
        await sendDialogueBuilds(deps, tx, [line]);
        return clip.takeId;
      });
      return described(takeId);
    },

    /** A published clip as anyone hears it, with Range; 404 once it is not published. */
    async clip(takeId: string, range?: ByteRange) {
      const key = await takes.publishedFile(takeId);
      if (!key) throw notFound("This clip is not published.");
      const file = await storage.open(key, range);
      if (!file) throw notFound("This clip is not published.");
      return file;
    },

    /** A voice's consent ended: every clip of theirs comes down in the handler's transaction. */
    handlers: [
      on(voicesEvents.consentWithdrawn, async ({ userId }, tx) => {
        const takeIds = await takes.unpublish(tx, { voiceId: userId });
        if (takeIds.length === 0) return;
        await events.emit(tx, studioEvents.unpublished, { takeIds });
        await sendDialogueBuilds(deps, tx, await linesOfTakes(deps, tx, takeIds));
      }),
    ],
  };
}

export type StudioReview = ReturnType<typeof createStudioReview>;
