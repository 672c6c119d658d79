import { randomUUID } from "node:crypto";
import { forbidden, HttpError, notFound } from "#server/http/errors";
import type { Job } from "#server/modules/module";
import { ORPHAN_SWEEP_EVERY_MS, sweepOrphans } from "#server/storage/orphan-sweep";
import { PROCESS_TAKE_JOB, type StudioTake, type TakeTrim } from "./studio.contract";
import type { StudioDeps, StudioUser } from "./studio.deps";
import { courseLine } from "./studio.lines";
import { createStudioRepository } from "./studio.repository";
import type { StudioViews } from "./studio.service";
import { processTake, wavProblem } from "./take-processing";

/** Where the studio keeps its files in the media storage: `studio/<voice>/<take>.wav|.webm`. */
export const STUDIO_PREFIX = "studio/";

/** What a voice who may not record is told (403): the grant, the consent, or the role is missing. */
export const MAY_NOT_RECORD =
  "You cannot record for the course now: a voice records with an Admin's grant and a standing consent (Settings).";

/** The job's data: the take to process. */
interface ProcessTakeData {
  takeId: string;
}

/** Removes a file, a failure only logged: the sweep removes what is left. */
function quietRemoval({ storage, logger }: Pick<StudioDeps, "storage" | "logger">) {
  return async (key: string) => {
    await storage.remove(key).catch((error: unknown) => {
      logger.warn({ err: error, key }, "a studio file could not be removed: the sweep will");
    });
  };
}

/** The job: reads the master, checks and processes it, stores the clip, writes the result once. */
async function processOne(deps: StudioDeps, { takeId }: ProcessTakeData): Promise<void> {
  const { db, course, storage } = deps;
  const takes = createStudioRepository(db);
  const take = await takes.take(takeId);
  if (take?.state !== "processing") return;
  const started = performance.now();
  const master = await storage.read(take.masterKey);
  if (!master) throw new Error(`the master of take ${takeId} is missing`);
  const line = courseLine(course, take);
  const referenceMs = line ? await deps.referenceMs(line) : 0;
  const trim = { startMs: take.trimStartMs ?? undefined, endMs: take.trimEndMs ?? undefined };
  const processed = await processTake(master, { trim, referenceMs });
  const clip =
    processed.passed && processed.clip
      ? // A key of this run's own: a second run of the job never overwrites the clip the first one kept.
        {
          key: `${STUDIO_PREFIX}${take.voiceId}/${take.id}-${randomUUID().slice(0, 8)}.webm`,
          bytes: processed.clip.length,
        }
      : null;
  if (clip) await storage.put(clip.key, processed.clip!);
  const written = await takes.finishProcessing(take.id, {
    checks: processed.checks,
    passed: processed.passed,
    durationMs: processed.durationMs,
    clip,
    loudness: processed.loudness,
    processingMs: Math.round(performance.now() - started),
  });
  // Another run wrote it first (a retry of a run that did finish): this run's clip is not the one kept.
  if (!written && clip) await quietRemoval(deps)(clip.key);
}

/**
 * Recording the course (docs/decisions/078-voice-studio.md): a voice's WAV master is stored and its
 * take recorded in `processing`, with the job that checks it and makes its clip sent in the same
 * transaction; the job writes the checks and, when they passed, the clip for review.
 */
export function createStudioRecording(deps: StudioDeps, views: StudioViews) {
  const { db, course, storage, jobs, logger } = deps;
  const takes = createStudioRepository(db);

  const removeQuietly = quietRemoval(deps);

  return {
    /**
     * A voice's master of a line: 403 unless they may record, 404 an unknown line, 422 not WAV. The
     * master is put before the take's transaction (its key is new) and removed when that fails.
     */
    async upload(
      user: StudioUser,
      key: { chapterId: string; dayId: string; lineId: string },
      trim: TakeTrim,
      bytes: Buffer,
    ): Promise<StudioTake> {
      const { mayRecord } = await views.access(user);
      if (!mayRecord) throw forbidden(MAY_NOT_RECORD);
      const line = courseLine(course, key);
      if (!line) throw notFound("The course has no such line.");
      const problem = wavProblem(bytes);
      if (problem) throw new HttpError(422, "NOT_A_WAV_MASTER", problem);
      const id = randomUUID();
      const masterKey = `${STUDIO_PREFIX}${user.id}/${id}.wav`;
      await storage.put(masterKey, bytes).catch((error: unknown) => {
        logger.error({ err: error, key: masterKey }, "a studio master could not be stored");
        throw new HttpError(
          503,
          "STORAGE_UNAVAILABLE",
          "Your recording could not be kept just now. Please try again in a moment.",
        );
      });
      try {
        const row = await db.transaction(async (tx) => {
          const stored = await takes.addTake(tx, {
            ...key,
            id,
            voiceId: user.id,
            masterKey,
            masterBytes: bytes.length,
            trimStartMs: trim.trimStartMs ?? null,
            trimEndMs: trim.trimEndMs ?? null,
          });
          await jobs.send(PROCESS_TAKE_JOB, { takeId: id } satisfies ProcessTakeData, { q: tx });
          return stored;
        });
        return (await views.described([row])).get(row.id)!;
      } catch (error) {
        await removeQuietly(masterKey);
        throw error;
      }
    },

    /** A take's master or clip, for the studio's players: reviewers only, with Range. */
    async audio(user: StudioUser, takeId: string, form: "master" | "clip", range?: Parameters<typeof storage.open>[1]) {
      await views.reviewer(user);
      const take = await takes.take(takeId);
      const key = form === "master" ? take?.masterKey : take?.clipKey;
      if (!key) throw notFound(form === "clip" ? "This take has no processed clip." : "There is no such take.");
      const file = await storage.open(key, range);
      if (!file) throw notFound("This take's audio is gone.");
      return { file, contentType: form === "master" ? "audio/wav" : "audio/webm" };
    },

    /** The queue's worker of PROCESS_TAKE_JOB: safe to run twice (only a take still processing is written). */
    worker: {
      name: PROCESS_TAKE_JOB,
      run: (data: ProcessTakeData) => processOne(deps, data),
      settings: { retryLimit: 3, retryDelaySeconds: 2, expireInSeconds: 120 },
    },

    /** Files under studio/ that no take holds (a crash between a file and its row; a voice's account gone). */
    jobs: [studioFilesSweep(storage, db)],
  };
}

/**
 * The files under studio/ that no take holds, removed every 10 minutes once older than the sweeps'
 * age (a crash between a file and its row; the takes of a deleted account), on the clock `now`.
 */
export function studioFilesSweep(storage: StudioDeps["storage"], db: StudioDeps["db"], now = () => new Date()): Job {
  const takes = createStudioRepository(db);
  return {
    name: "studio.sweep-files",
    everyMs: ORPHAN_SWEEP_EVERY_MS,
    run: () => sweepOrphans(storage, { prefix: STUDIO_PREFIX, kept: takes.heldFileKeys, now: now() }),
  };
}

export type StudioRecording = ReturnType<typeof createStudioRecording>;
