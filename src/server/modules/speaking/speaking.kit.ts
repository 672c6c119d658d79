import { type Chapter, type Day, findDay as findCourseDay, lookUpDay } from "#course/course";
import type { DayRef } from "#course/progress-rules";
import { practisedLine, rolePlayOf, takeAudioPath } from "#course/speaking";
import type { Database } from "#server/db/client";
import type { Emitter } from "#server/events/events";
import { badRequest } from "#server/http/errors";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { LinePractice, SubmissionSummary, Take } from "./speaking.contract";
import type { LinePracticeRow, SpeakingRepository, SubmissionRow, TakeRow } from "./speaking.repository";

/** What the speaking service's use cases share: the database, the course, progress, the rows and the clock. */
export interface SpeakingKit {
  db: Database;
  course: readonly Chapter[];
  /** Whether the learner may open the day, and the tasks their voice completes. */
  progress: Pick<ProgressModule["service"], "assertDayOpen" | "moveTaskForward" | "isTaskCompleted">;
  takes: SpeakingRepository;
  now: () => Date;
  /** Records that takes were sent to the tutors' queue, in the transaction that sends them. */
  events: Emitter;
}

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

export const submissionOf = (row: SubmissionRow, takes: TakeRow[]): SubmissionSummary => ({
  id: row.id,
  taskId: row.taskId,
  submittedAt: row.submittedAt,
  reviewedAt: row.reviewedAt,
  takes: takes.filter((take) => take.submissionId === row.id).map(takeOf),
});

export function lineOf(lineId: string, row: LinePracticeRow | undefined, dayTakes: TakeRow[]): LinePractice {
  const mine = dayTakes.filter((take) => take.lineId === lineId);
  const latest = mine.find((take) => take.submissionId === null) ?? mine[0];
  return {
    lineId,
    listened: Boolean(row?.listenedAt),
    saidAloud: Boolean(row?.saidAloudAt),
    take: latest ? takeOf(latest) : null,
  };
}

export function findDay(course: readonly Chapter[], target: DayRef): Day {
  const found = lookUpDay(course as Chapter[], target.chapterId, target.dayId);
  if ("unknown" in found) throw badRequest(found.unknown);
  return found.day;
}

export function findLine(day: Day, lineId: string) {
  const line = practisedLine(day, lineId);
  if (!line) throw badRequest(`Day ${day.number} has no line "${lineId}" to say.`);
  return line;
}

/** The day a row is about, when the course still has it. */
export function dayIn(course: readonly Chapter[], row: { chapterId: string; dayId: string }): Day | undefined {
  return findCourseDay(course, row.chapterId, row.dayId)?.day;
}

/** What a submission is called: its role-play's title, or "Lines" for lines the learner chose. */
export function titleOf(
  course: readonly Chapter[],
  row: { chapterId: string; dayId: string; taskId: string | null },
): string {
  const day = dayIn(course, row);
  return (row.taskId && day && rolePlayOf(day, row.taskId)?.title) || "Lines";
}
