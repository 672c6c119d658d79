import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { type Chapter, courseAudioPath } from "#course/course";
import type { DayRef } from "#course/progress-rules";
import { can } from "#course/roles";
import { practisedLine, type SelfRating, TAKES_QUOTA_BYTES } from "#course/speaking";
import { requireAccount } from "#server/db/accounts";
import type { Database, Transaction } from "#server/db/client";
import type { Emitter } from "#server/events/events";
import type { SessionUser } from "#server/http/context";
import { HttpError, notFound } from "#server/http/errors";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { ByteRange, FileStorage } from "#server/storage/storage";
import type { LineForTutor, Take, TakeSaved } from "./speaking.contract";
import { speakingExport } from "./speaking.export";
import { findDay, findLine, type SpeakingKit, takeOf } from "./speaking.kit";
import { completeShadowing, dayPractice } from "./speaking.practice";
import { createSpeakingRepository, type SpeakingRepository } from "./speaking.repository";
import { sendingToTutors } from "./speaking.sending";
import type { TakeAudio } from "./take-audio";
import { TAKES_PREFIX, takeFiles } from "./take-files";
import { readTake, sharedTakeReader, type TakeReader } from "./take-reader";

export { takeOf } from "./speaking.kit";

export interface SpeakingDeps {
  db: Database;
  course: readonly Chapter[];
  storage: FileStorage;
  /** Whether the learner may open the day, and the tasks their voice completes. */
  progress: Pick<ProgressModule["service"], "assertDayOpen" | "moveTaskForward" | "isTaskCompleted">;
  /** Records that takes were sent to the tutors' queue (speaking.submitted), in the sending's transaction. */
  events: Emitter;
  now?: () => Date;
  /** What a learner's takes may hold in all; TAKES_QUOTA_BYTES unless a test sets less. */
  quotaBytes?: number;
  /** Reads takes off the event loop; the process's shared reader unless a test gives its own. */
  takeReader?: TakeReader;
  /** Where a take's file that could not be removed is told (the orphan sweep removes it later). */
  logger?: Pick<Logger, "warn" | "error">;
}

const NO_SUCH_TAKE = "There is no such recording.";
const EXTENSIONS = { "audio/webm": "webm", "audio/mp4": "m4a" } as const;

/**
 * The learner's voice (docs/decisions/047-speaking.md): takes of the lines they practise, kept
 * through the storage interface; marks for lines listened to and said aloud; the "I can't speak
 * now" mode of a day; a role-play done alone, sent to the tutors' queue. A day's shadowing and a
 * role-play's task are completed here, through progress, never by a bare status write.
 */
export function createSpeakingService({
  db,
  course,
  storage,
  progress,
  events,
  now = () => new Date(),
  quotaBytes = TAKES_QUOTA_BYTES,
  takeReader = sharedTakeReader(),
  logger,
}: SpeakingDeps) {
  const kit: SpeakingKit = { db, course, progress, takes: createSpeakingRepository(db), now, events };
  const files = takeFiles(storage, logger);
  return {
    ...takeKeeping(kit, { storage, files, takeReader, quotaBytes }),
    ...dayPractice(kit),
    ...sendingToTutors(kit),
    ...sessionRoom(kit),

    /** The learner's part of Export My Data (speaking.export.ts). */
    ...speakingExport(kit.takes, storage, takeOf),
  };
}

/** Removes the learner's oldest takes not sent to a tutor until their takes fit the quota, or says they cannot. */
async function fitQuota(
  takes: SpeakingRepository,
  quotaBytes: number,
  tx: Transaction,
  userId: string,
  keep: string,
): Promise<string[]> {
  let used = await takes.usedBytes(tx, userId);
  if (used <= quotaBytes) return [];
  const pruned: string[] = [];
  for (const candidate of await takes.unsentOldestFirst(tx, userId, keep)) {
    pruned.push(candidate.id);
    used -= candidate.byteSize;
    if (used <= quotaBytes) break;
  }
  if (used > quotaBytes) {
    throw new HttpError(
      507,
      "TAKES_QUOTA",
      "Your recordings waiting for a tutor fill the space Jalan keeps for you. Please wait for your tutor to hear them.",
    );
  }
  return takes.removeTakes(tx, pruned);
}

/** Where takes are kept: the storage, its files, the reader of takes and the quota. */
interface Keeping {
  storage: FileStorage;
  files: ReturnType<typeof takeFiles>;
  takeReader: TakeReader;
  quotaBytes: number;
}

/** The learner's takes: saved, played to them or to staff, rated by them. */
function takeKeeping(kit: SpeakingKit, { storage, files, takeReader, quotaBytes }: Keeping) {
  const { db, course, progress, takes } = kit;
  return {
    /**
     * Stores a take of a line, replacing the line's take not yet sent. Refused before anything is
     * written: an unknown day or line (400), a file over 1 MB (413), bytes that are not Opus in WebM
     * or AAC/Opus in MP4 (415), a take cut off, empty, over 30 s, padded or too slow to read (400),
     * too many takes being read (503), a locked day (409). The bytes are read off the event loop,
     * unless the upload's reading has read them (`read`, take-upload.ts).
     */
    async saveTake(user: SessionUser, target: DayRef & { lineId: string }, bytes: Buffer, read?: TakeAudio) {
      const day = findDay(course, target);
      findLine(day, target.lineId);
      const audio = await readTake(takeReader, bytes, read);
      const dayOf = { chapterId: target.chapterId, dayId: target.dayId };
      const id = randomUUID();
      const fileKey = `${TAKES_PREFIX}${user.id}/${id}.${EXTENSIONS[audio.type]}`;
      return files.saveWith(fileKey, bytes, (putFile) =>
        db.transaction(async (tx) => {
          await takes.lockUser(tx, user.id);
          await progress.assertDayOpen(user, dayOf, tx);
          const replaced = await takes.removeUnsent(tx, { userId: user.id, ...dayOf }, target.lineId);
          await putFile(tx);
          const row = await takes.insert(tx, {
            id,
            userId: user.id,
            ...dayOf,
            lineId: target.lineId,
            fileKey,
            contentType: audio.type,
            byteSize: bytes.length,
            durationMs: audio.durationMs,
          });
          const pruned = await fitQuota(takes, quotaBytes, tx, user.id, id);
          const completedTasks = await completeShadowing(kit, tx, user, dayOf, day, target.lineId);
          const value: TakeSaved = { take: takeOf(row), completedTasks };
          return { value, removedKeys: [...replaced, ...pruned] };
        }),
      );
    },

    /**
     * A take's audio for its owner, or for staff who may act on its owner (a Tutor on Students).
     * Anyone else, like a take that is not there, gets 404: a take's id tells nobody it exists.
     */
    async takeAudio(user: SessionUser, takeId: string, range?: ByteRange) {
      const take = /^[0-9a-f-]{36}$/i.test(takeId) ? await takes.takeById(takeId) : undefined;
      if (!take) throw notFound(NO_SUCH_TAKE);
      if (take.userId !== user.id) {
        if (!can(user.role, "tutor:view")) throw notFound(NO_SUCH_TAKE);
        await requireAccount(db, take.userId, { id: user.id, role: user.role });
      }
      const file = await storage.open(take.fileKey, range);
      if (!file) throw notFound(NO_SUCH_TAKE);
      return { take, file };
    },

    /** The learner's own rating of their take (again, close, good); 404 for anyone else's take. */
    async rateOwnTake(user: SessionUser, takeId: string, rating: SelfRating): Promise<Take> {
      const row = /^[0-9a-f-]{36}$/i.test(takeId) ? await takes.setSelfRating(user.id, takeId, rating) : undefined;
      if (!row) throw notFound(NO_SUCH_TAKE);
      return takeOf(row);
    },
  };
}

/** What a tutor plays of a learner's takes in a session's room. */
function sessionRoom({ course, takes }: SpeakingKit) {
  return {
    /**
     * The learner's newest take of each of these lines of a day, beside its model, in the lines'
     * order: what a tutor plays in a session's room (the learner's role-play alone, their self-ratings
     * and any tutor's ratings). Lines without a take are left out.
     */
    async latestTakesOf(learnerId: string, target: DayRef, lineIds: readonly string[]): Promise<LineForTutor[]> {
      const day = findDay(course, target);
      const dayTakes = await takes.takesOfDay({ userId: learnerId, chapterId: target.chapterId, dayId: target.dayId });
      return lineIds.flatMap((lineId) => {
        const newest = dayTakes.find((take) => take.lineId === lineId);
        const line = practisedLine(day, lineId);
        if (!newest || !line) return [];
        return [
          {
            take: takeOf(newest),
            malay: line.malay,
            english: line.english,
            model: courseAudioPath(target.chapterId, target.dayId, lineId),
          },
        ];
      });
    },
  };
}

export type SpeakingService = ReturnType<typeof createSpeakingService>;
