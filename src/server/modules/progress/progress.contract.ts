import { z } from "zod";
import type { CompletedDays, ProgressMap } from "#course/progress-rules";
import { TASK_STATUSES } from "#course/progress-status";

/**
 * The progress API's contract: what a learner's save and a staff member's change send, and what
 * every progress answer holds. Routes: GET /api/progress, PUT /api/progress/:chapterId/:dayId/:taskId
 * (the learner's own), and staff's /api/users/:userId/progress… (the users module).
 */

/** What a learner may record: not-started is the absence of a record, never something to write. */
export const progressUpdateSchema = z
  .object({
    status: z.enum(["in-progress", "completed"], {
      error: (issue) =>
        issue.input === undefined ? "Status is required." : 'Status must be "in-progress" or "completed".',
    }),
  })
  .strict();

export type RecordedStatus = z.infer<typeof progressUpdateSchema>["status"];

/** What staff may set for a learner's task: any status; not-started removes the record. */
export const staffProgressUpdateSchema = z
  .object({
    status: z.enum(TASK_STATUSES, {
      error: (issue) =>
        issue.input === undefined
          ? "Status is required."
          : 'Status must be "not-started", "in-progress" or "completed".',
    }),
  })
  .strict();

/**
 * What a progress answer holds: the task map, and the days the user has completed once
 * (table day_completion, docs/decisions/030-completed-days-stay-complete.md), in course order.
 */
export interface ProgressView {
  progress: ProgressMap;
  completedDays: CompletedDays;
}
