import type { Day } from "#course/course";
import type { DayRef } from "#course/progress-rules";
import { practisedLines, shadowingsWithLine } from "#course/speaking";
import type { Transaction } from "#server/db/client";
import type { SessionUser } from "#server/http/context";
import type { LineMarked, SpeakingDay } from "./speaking.contract";
import { findDay, findLine, lineOf, type SpeakingKit, submissionOf } from "./speaking.kit";

/**
 * Completes each listen-and-shadow mission holding `lineId` once every one of its lines has been
 * listened to and either recorded or said aloud. Answers the tasks this completed.
 */
export async function completeShadowing(
  { takes, progress }: SpeakingKit,
  tx: Transaction,
  user: SessionUser,
  target: DayRef,
  day: Day,
  lineId: string,
) {
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

/** The learner's practice of a day: its lines marked listened to or said aloud, and its quiet mode. */
export function dayPractice(kit: SpeakingKit) {
  const { db, course, progress, takes, now } = kit;
  return {
    /** The learner's day: the mode, each line they may say with its marks and latest take, what they sent. */
    async day(user: SessionUser, target: DayRef): Promise<SpeakingDay> {
      const day = findDay(course, target);
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
      const day = findDay(course, target);
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
        const completedTasks = await completeShadowing(kit, tx, user, dayOf, day, target.lineId);
        const dayTakes = await takes.takesOfDay(owner, tx);
        return { line: lineOf(target.lineId, row, dayTakes), completedTasks };
      });
    },

    /** Turns the day's "I can't speak now" mode on or off. */
    async setQuiet(user: SessionUser, target: DayRef, quiet: boolean): Promise<{ quiet: boolean }> {
      findDay(course, target);
      const dayOf = { chapterId: target.chapterId, dayId: target.dayId };
      await progress.assertDayOpen(user, dayOf);
      await takes.setQuiet({ userId: user.id, ...dayOf }, quiet);
      return { quiet };
    },
  };
}
