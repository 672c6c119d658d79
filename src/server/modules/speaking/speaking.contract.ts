import { z } from "zod";
import { SELF_RATINGS, type SelfRating, type TakeType } from "#course/speaking";

/**
 * The speaking API's contract (docs/decisions/047-speaking.md), under /api/speaking:
 *
 * POST /takes                                   multipart TakeUpload → 201 TakeSaved
 * GET  /takes/:takeId                           the take's audio (its owner, or staff who may act on them)
 * PUT  /takes/:takeId/self-rating               SelfRatingInput → { take }
 * GET  /days/:chapterId/:dayId                  SpeakingDay: the signed-in learner's lines, takes and mode
 * PUT  /days/:chapterId/:dayId/lines/:lineId    LineMarkInput → LineMarked
 * PUT  /days/:chapterId/:dayId/quiet            QuietInput → { quiet }
 * POST /days/:chapterId/:dayId/role-plays/:taskId → 201 RolePlaySubmitted
 */

const id = (label: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`) })
    .min(1, `${label} is required.`)
    .max(200, `${label} must be at most 200 characters.`);

/** The form fields of a take's upload, beside the file in the field "take". */
export const takeFieldsSchema = z.object({
  chapterId: id("Chapter id"),
  dayId: id("Day id"),
  lineId: id("Line id"),
});

/** The upload as the handler reads it; the web's typed client sends it as `{ form }`. */
export interface TakeUpload extends z.infer<typeof takeFieldsSchema> {
  take: File;
}

export const selfRatingSchema = z
  .object({
    rating: z.enum(SELF_RATINGS, { error: `Rating must be one of ${SELF_RATINGS.join(", ")}.` }),
  })
  .strict();

/** Marks on a line: listened to its model, said it aloud without a take. Marks are only ever added. */
export const lineMarkSchema = z
  .object({
    listened: z.literal(true).optional(),
    saidAloud: z.literal(true).optional(),
  })
  .strict()
  .refine((mark) => mark.listened || mark.saidAloud, { message: "Send listened, saidAloud or both." });

export const quietSchema = z.object({ quiet: z.boolean({ error: "quiet must be true or false." }) }).strict();

/** A take as its learner (and staff) see it; in JSON, dates are ISO 8601 strings. */
export interface Take {
  id: string;
  chapterId: string;
  dayId: string;
  lineId: string;
  /** Where its audio is served: /api/speaking/takes/:id. */
  audio: string;
  type: TakeType;
  durationMs: number;
  byteSize: number;
  selfRating: SelfRating | null;
  /** Set once sent to a tutor. */
  submissionId: string | null;
  tutorRating: number | null;
  tutorComment: string | null;
  createdAt: Date;
}

/** A line of a day as the learner has practised it. */
export interface LinePractice {
  lineId: string;
  listened: boolean;
  saidAloud: boolean;
  /** The latest take: the one not yet sent, else the latest sent. */
  take: Take | null;
}

/** What a learner sent a tutor, and what the tutor said. */
export interface SubmissionSummary {
  id: string;
  /** The role-play it did alone, or null for lines the learner chose to send. */
  taskId: string | null;
  submittedAt: Date;
  reviewedAt: Date | null;
  takes: Take[];
}

export interface SpeakingDay {
  /** "I can't speak now": the day's lines offer "Said aloud" in place of the recorder. */
  quiet: boolean;
  lines: LinePractice[];
  submissions: SubmissionSummary[];
}

/** Tasks a learner's voice just completed (a day's shadowing, a role-play), by id. */
export interface Completed {
  completedTasks: string[];
}

export interface TakeSaved extends Completed {
  take: Take;
}

export interface LineMarked extends Completed {
  line: LinePractice;
}

export interface RolePlaySubmitted extends Completed {
  /** The set sent to the tutors' queue, or null when no line of it was recorded (all said aloud). */
  submission: SubmissionSummary | null;
}
