import { z } from "zod";
import { FEEDBACK_MAX_LENGTH } from "#course/feedback";

/**
 * The feedback API's contract: POST /api/feedback (a tutor's note, with an optional pin) and GET
 * /api/feedback (the signed-in learner's notes, newest first).
 */

const idField = (label: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`) })
    .min(1, `${label} is required.`)
    .max(200, `${label} must be at most 200 characters.`);

/** What a tutor sends. The tutor is the signed-in user, never a field: unknown keys are refused. */
export const feedbackInputSchema = z
  .object({
    studentId: idField("Student id"),
    chapterId: idField("Chapter id"),
    dayId: idField("Day id"),
    feedback: z
      .string({ error: (issue) => (issue.input === undefined ? "Feedback cannot be empty" : "Feedback must be text.") })
      .trim()
      .min(1, "Feedback cannot be empty")
      .max(FEEDBACK_MAX_LENGTH, `Feedback must be at most ${FEEDBACK_MAX_LENGTH} characters.`),
    /** A phrase of the day to pin into the learner's review with the note (the review module's pin). */
    pinPhraseId: idField("Phrase id").optional(),
  })
  .strict();

export type FeedbackInput = z.infer<typeof feedbackInputSchema>;

/** Feedback as its learner reads it; in JSON, createdAt is an ISO 8601 string. */
export interface FeedbackRecord {
  id: string;
  chapterId: string;
  dayId: string;
  feedback: string;
  createdAt: Date;
  /** The tutor's display name; null once their account is gone. */
  tutorName: string | null;
}

/** GET /api/feedback: the learner's feedback, newest first. */
export interface FeedbackList {
  feedback: FeedbackRecord[];
}

/** POST /api/feedback (201): the note as stored. */
export interface FeedbackCreated {
  feedback: FeedbackRecord;
}
