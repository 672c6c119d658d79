import type { DayRef } from "#course/progress-rules";
import { rolePlayOf, WAITING_SUBMISSIONS_MAX } from "#course/speaking";
import type { SessionUser } from "#server/http/context";
import { badRequest, HttpError } from "#server/http/errors";
import { type RolePlaySubmitted, type SubmissionSummary, speakingEvents } from "./speaking.contract";
import { findDay, findLine, type SpeakingKit, submissionOf } from "./speaking.kit";

const tooManyWaiting = () =>
  new HttpError(
    429,
    "TOO_MANY_WAITING",
    `You have ${WAITING_SUBMISSIONS_MAX} sets of recordings waiting for a tutor. Please wait until a tutor has heard one.`,
  );

/**
 * What the learner sends to the tutors' queue: a role-play done alone, or takes of lines they chose.
 * Each submission is recorded as speaking.submitted in its transaction: the staff whose queue is
 * open hear of it (speaking.queue-changes.ts).
 */
export function sendingToTutors({ db, course, progress, takes, events }: SpeakingKit) {
  return {
    /**
     * The learner's role-play done alone: each of its phrases recorded (the take not yet sent) or
     * said aloud. The recorded ones go to the tutors' queue as one submission; the role-play's task
     * is completed, so the next day opens. Refused when a phrase has neither (409 LINES_MISSING).
     */
    async submitRolePlay(user: SessionUser, target: DayRef & { taskId: string }): Promise<RolePlaySubmitted> {
      const day = findDay(course, target);
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
          await events.emit(tx, speakingEvents.submitted, { submissionId: sent.submission.id, learnerId: user.id });
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
      const day = findDay(course, target);
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
        await events.emit(tx, speakingEvents.submitted, { submissionId: sent.submission.id, learnerId: user.id });
        return { submission: submissionOf(sent.submission, sent.takes) };
      });
    },
  };
}
