import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import { type Chapter, courseAudioPath, type Day, lookUpDay } from "#course/course";
import type { DayRef } from "#course/progress-rules";
import { can } from "#course/roles";
import {
  practisedLine,
  practisedLines,
  rolePlayOf,
  type SelfRating,
  shadowingsWithLine,
  TAKES_QUOTA_BYTES,
  takeAudioPath,
  WAITING_SUBMISSIONS_MAX,
} from "#course/speaking";
import { requireAccount } from "#server/db/accounts";
import type { Database, Transaction } from "#server/db/client";
import type { SessionUser } from "#server/http/context";
import { badRequest, HttpError, notFound } from "#server/http/errors";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { ByteRange, FileStorage } from "#server/storage/storage";
import type {
  LineForTutor,
  LineMarked,
  LinePractice,
  RolePlaySubmitted,
  SpeakingDay,
  SubmissionSummary,
  Take,
  TakeSaved,
} from "./speaking.contract";
import { speakingExport } from "./speaking.export";
import {
  createSpeakingRepository,
  type LinePracticeRow,
  type SubmissionRow,
  type TakeRow,
} from "./speaking.repository";
import type { TakeAudio } from "./take-audio";
import { TAKES_PREFIX, takeFiles } from "./take-files";
import { readTake, sharedTakeReader, type TakeReader } from "./take-reader";

export interface SpeakingDeps {
  db: Database;
  course: readonly Chapter[];
  storage: FileStorage;
  /** Whether the learner may open the day, and the tasks their voice completes. */
  progress: Pick<ProgressModule["service"], "assertDayOpen" | "moveTaskForward" | "isTaskCompleted">;
  now?: () => Date;
  /** What a learner's takes may hold in all; TAKES_QUOTA_BYTES unless a test sets less. */
  quotaBytes?: number;
  /** Reads takes off the event loop; the process's shared reader unless a test gives its own. */
  takeReader?: TakeReader;
  /** Where a take's file that could not be removed is told (the orphan sweep removes it later). */
  logger?: Pick<Logger, "warn" | "error">;
}

const NO_SUCH_TAKE = "There is no such recording.";
const tooManyWaiting = () =>
  new HttpError(
    429,
    "TOO_MANY_WAITING",
    `You have ${WAITING_SUBMISSIONS_MAX} sets of recordings waiting for a tutor. Please wait until a tutor has heard one.`,
  );
const EXTENSIONS = { "audio/webm": "webm", "audio/mp4": "m4a" } as const;

export function takeOf(row: TakeRow): Take {
  return {
    id: row.id,
    chapterId: row.chapterId,
    dayId: row.dayId,
    lineId: row.lineId,
    audio: takeAudioPath(row.id),
    type: row.contentType,
    durationMs: row.durationMs,
    byteSize: row.byteSize,
    selfRating: row.selfRating,
    submissionId: row.submissionId,
    tutorRating: row.tutorRating,
    tutorComment: row.tutorComment,
    createdAt: row.createdAt,
  };
}

const submissionOf = (row: SubmissionRow, takes: TakeRow[]): SubmissionSummary => ({
  id: row.id,
  taskId: row.taskId,
  submittedAt: row.submittedAt,
  reviewedAt: row.reviewedAt,
  takes: takes.filter((take) => take.submissionId === row.id).map(takeOf),
});

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
  now = () => new Date(),
  quotaBytes = TAKES_QUOTA_BYTES,
  takeReader = sharedTakeReader(),
  logger,
}: SpeakingDeps) {
  const takes = createSpeakingRepository(db);
  const files = takeFiles(storage, logger);

  function findDay(target: DayRef): Day {
    const found = lookUpDay(course as Chapter[], target.chapterId, target.dayId);
    if ("unknown" in found) throw badRequest(found.unknown);
    return found.day;
  }

  function findLine(day: Day, lineId: string) {
    const line = practisedLine(day, lineId);
    if (!line) throw badRequest(`Day ${day.number} has no line "${lineId}" to say.`);
    return line;
  }

  /**
   * Completes each listen-and-shadow mission holding `lineId` once every one of its lines has been
   * listened to and either recorded or said aloud. Answers the tasks this completed.
   */
  async function completeShadowing(tx: Transaction, user: SessionUser, target: DayRef, day: Day, lineId: string) {
    const missions = shadowingsWithLine(day, lineId);
    if (missions.length === 0) return [];
    const owner = { userId: user.id, ...target };
    const [lines, dayTakes] = await Promise.all([takes.linesOfDay(owner, tx), takes.takesOfDay(owner, tx)]);
    const recorded = new Set(dayTakes.map((take) => take.lineId));
    const byLine = new Map(lines.map((line) => [line.lineId, line]));
    const completed: string[] = [];
    for (const { block, lineIds } of missions) {
      const done = lineIds.every((id) => {
        const line = byLine.get(id);
        return line?.listenedAt && (recorded.has(id) || line.saidAloudAt);
      });
      const task = { ...target, taskId: block.task.id };
      if (!done || (await progress.isTaskCompleted(user.id, task, tx))) continue;
      await progress.moveTaskForward(user.id, task, "completed", tx);
      completed.push(block.task.id);
    }
    return completed;
  }

  function lineOf(lineId: string, row: LinePracticeRow | undefined, dayTakes: TakeRow[]): LinePractice {
    const mine = dayTakes.filter((take) => take.lineId === lineId);
    const latest = mine.find((take) => take.submissionId === null) ?? mine[0];
    return {
      lineId,
      listened: Boolean(row?.listenedAt),
      saidAloud: Boolean(row?.saidAloudAt),
      take: latest ? takeOf(latest) : null,
    };
  }

  /** Removes the learner's oldest takes not sent to a tutor until their takes fit the quota, or says they cannot. */
  async function fitQuota(tx: Transaction, userId: string, keep: string): Promise<string[]> {
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

  return {
    /**
     * Stores a take of a line, replacing the line's take not yet sent. Refused before anything is
     * written: an unknown day or line (400), a file over 1 MB (413), bytes that are not Opus in WebM
     * or AAC/Opus in MP4 (415), a take cut off, empty, over 30 s, padded or too slow to read (400),
     * too many takes being read (503), a locked day (409). The bytes are read off the event loop,
     * unless the upload's reading has read them (`read`, take-upload.ts).
     */
    async saveTake(user: SessionUser, target: DayRef & { lineId: string }, bytes: Buffer, read?: TakeAudio) {
      const day = findDay(target);
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
          const pruned = await fitQuota(tx, user.id, id);
          const completedTasks = await completeShadowing(tx, user, dayOf, day, target.lineId);
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

    /** The learner's day: the mode, each line they may say with its marks and latest take, what they sent. */
    async day(user: SessionUser, target: DayRef): Promise<SpeakingDay> {
      const day = findDay(target);
      const owner = { userId: user.id, chapterId: target.chapterId, dayId: target.dayId };
      const [quiet, lines, dayTakes, submissions] = await Promise.all([
        takes.isQuiet(owner),
        takes.linesOfDay(owner),
        takes.takesOfDay(owner),
        takes.submissionsOfDay(owner),
      ]);
      const byLine = new Map(lines.map((line) => [line.lineId, line]));
      return {
        quiet,
        lines: practisedLines(day).map((line) => lineOf(line.id, byLine.get(line.id), dayTakes)),
        submissions: submissions.map((row) => submissionOf(row, dayTakes)),
      };
    },

    /** Marks a line listened to or said aloud; completes the day's shadowing when that was its last step. */
    async markLine(
      user: SessionUser,
      target: DayRef & { lineId: string },
      marks: { listened?: true | undefined; saidAloud?: true | undefined },
    ): Promise<LineMarked> {
      const day = findDay(target);
      findLine(day, target.lineId);
      const dayOf = { chapterId: target.chapterId, dayId: target.dayId };
      const owner = { userId: user.id, ...dayOf };
      return db.transaction(async (tx) => {
        await takes.lockUser(tx, user.id);
        await progress.assertDayOpen(user, dayOf, tx);
        const row = await takes.mark(
          owner,
          target.lineId,
          { listened: marks.listened === true, saidAloud: marks.saidAloud === true },
          now(),
          tx,
        );
        const completedTasks = await completeShadowing(tx, user, dayOf, day, target.lineId);
        const dayTakes = await takes.takesOfDay(owner, tx);
        return { line: lineOf(target.lineId, row, dayTakes), completedTasks };
      });
    },

    /** Turns the day's "I can't speak now" mode on or off. */
    async setQuiet(user: SessionUser, target: DayRef, quiet: boolean): Promise<{ quiet: boolean }> {
      findDay(target);
      const dayOf = { chapterId: target.chapterId, dayId: target.dayId };
      await progress.assertDayOpen(user, dayOf);
      await takes.setQuiet({ userId: user.id, ...dayOf }, quiet);
      return { quiet };
    },

    /**
     * The learner's role-play done alone: each of its phrases recorded (the take not yet sent) or
     * said aloud. The recorded ones go to the tutors' queue as one submission; the role-play's task
     * is completed, so the next day opens. Refused when a phrase has neither (409 LINES_MISSING).
     */
    async submitRolePlay(user: SessionUser, target: DayRef & { taskId: string }): Promise<RolePlaySubmitted> {
      const day = findDay(target);
      const rolePlay = rolePlayOf(day, target.taskId);
      if (!rolePlay) throw badRequest(`"${target.taskId}" of day ${day.number} is not a role-play.`);
      const dayOf = { chapterId: target.chapterId, dayId: target.dayId };
      const owner = { userId: user.id, ...dayOf };
      return db.transaction(async (tx) => {
        await takes.lockUser(tx, user.id);
        await progress.assertDayOpen(user, dayOf, tx);
        const [lines, dayTakes] = await Promise.all([takes.linesOfDay(owner, tx), takes.takesOfDay(owner, tx)]);
        const unsent = new Map(
          dayTakes.filter((take) => take.submissionId === null).map((take) => [take.lineId, take]),
        );
        const saidAloud = new Set(lines.filter((line) => line.saidAloudAt).map((line) => line.lineId));
        const missing = rolePlay.phrases.filter((phrase) => !unsent.has(phrase.id) && !saidAloud.has(phrase.id));
        if (missing.length > 0) {
          throw new HttpError(
            409,
            "LINES_MISSING",
            `Record or say aloud every line of the role-play first: ${missing.map((phrase) => `"${phrase.malay}"`).join(", ")}.`,
          );
        }
        const takeIds = rolePlay.phrases.flatMap((phrase) => {
          const take = unsent.get(phrase.id);
          return take ? [take.id] : [];
        });
        let submission: SubmissionSummary | null = null;
        if (takeIds.length > 0) {
          if ((await takes.waitingCount(tx, user.id)) >= WAITING_SUBMISSIONS_MAX) {
            throw tooManyWaiting();
          }
          const sent = await takes.submit(tx, owner, target.taskId, takeIds);
          submission = submissionOf(sent.submission, sent.takes);
        }
        const task = { ...dayOf, taskId: target.taskId };
        const wasCompleted = await progress.isTaskCompleted(user.id, task, tx);
        await progress.moveTaskForward(user.id, task, "completed", tx);
        return { submission, completedTasks: wasCompleted ? [] : [target.taskId] };
      });
    },

    /**
     * Sends the learner's takes (not yet sent) of the chosen lines to the tutors' queue as one
     * submission. Refused when a line has no such take (409 NO_TAKE) or too many sets wait (429).
     */
    async sendLines(user: SessionUser, target: DayRef, lineIds: string[]): Promise<{ submission: SubmissionSummary }> {
      const day = findDay(target);
      for (const lineId of lineIds) findLine(day, lineId);
      const dayOf = { chapterId: target.chapterId, dayId: target.dayId };
      const owner = { userId: user.id, ...dayOf };
      return db.transaction(async (tx) => {
        await takes.lockUser(tx, user.id);
        await progress.assertDayOpen(user, dayOf, tx);
        const unsent = new Map(
          (await takes.takesOfDay(owner, tx))
            .filter((take) => take.submissionId === null)
            .map((take) => [take.lineId, take]),
        );
        const missing = [...new Set(lineIds)].filter((lineId) => !unsent.has(lineId));
        if (missing.length > 0) {
          throw new HttpError(409, "NO_TAKE", `Record these lines before sending them: ${missing.join(", ")}.`);
        }
        if ((await takes.waitingCount(tx, user.id)) >= WAITING_SUBMISSIONS_MAX) {
          throw tooManyWaiting();
        }
        const ids = [...new Set(lineIds)].map((lineId) => unsent.get(lineId)!.id);
        const sent = await takes.submit(tx, owner, null, ids);
        return { submission: submissionOf(sent.submission, sent.takes) };
      });
    },

    /**
     * The learner's newest take of each of these lines of a day, beside its model, in the lines'
     * order: what a tutor plays in a session's room (the learner's role-play alone, their self-ratings
     * and any tutor's ratings). Lines without a take are left out.
     */
    async latestTakesOf(learnerId: string, target: DayRef, lineIds: readonly string[]): Promise<LineForTutor[]> {
      const day = findDay(target);
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

    /** The learner's part of Export My Data (speaking.export.ts). */
    ...speakingExport(takes, storage, takeOf),
  };
}

export type SpeakingService = ReturnType<typeof createSpeakingService>;
