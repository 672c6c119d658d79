import { z } from "zod";
import { FEEDBACK_MAX_LENGTH } from "#course/feedback";
import { multiLineText } from "#course/text-fields";

/**
 * The feedback API's contract: POST /api/feedback (a tutor's note, with an optional pin), GET
 * /api/feedback (the signed-in learner's notes, newest first), and staff's record of what a learner
 * received: GET /api/feedback/learners/:studentId, PATCH /api/feedback/:id (a correction) and DELETE
 * /api/feedback/:id (withdrawn).
 */

const idField = (label: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`) })
    .min(1, `${label} is required.`)
    .max(200, `${label} must be at most 200 characters.`);

/** A note's text: trimmed, never empty, at most FEEDBACK_MAX_LENGTH characters, lines and tabs but no other control characters. */
const feedbackText = multiLineText(
  z
    .string({ error: (issue) => (issue.input === undefined ? "Feedback cannot be empty" : "Feedback must be text.") })
    .trim()
    .min(1, "Feedback cannot be empty")
    .max(FEEDBACK_MAX_LENGTH, `Feedback must be at most ${FEEDBACK_MAX_LENGTH} characters.`),
  "Your feedback",
);

/** What a tutor sends. The tutor is the signed-in user, never a field: unknown keys are refused. */
export const feedbackInputSchema = z
  .object({
    studentId: idField("Student id"),
    chapterId: idField("Chapter id"),
    dayId: idField("Day id"),
    feedback: feedbackText,
    /** A phrase of the day to pin into the learner's review with the note (the review module's pin). */
    pinPhraseId: idField("Phrase id").optional(),
  })
  .strict();

export type FeedbackInput = z.infer<typeof feedbackInputSchema>;

/** PATCH /api/feedback/:id: the note's corrected text, and nothing else. */
export const feedbackCorrectionSchema = z.object({ feedback: feedbackText }).strict();

export type FeedbackCorrection = z.infer<typeof feedbackCorrectionSchema>;

/** Feedback as its learner reads it; in JSON, createdAt and correctedAt are ISO 8601 strings. */
export interface FeedbackRecord {
  id: string;
  chapterId: string;
  dayId: string;
  feedback: string;
  createdAt: Date;
  /** When its tutor last corrected the text; null while it reads as first sent. */
  correctedAt: Date | null;
  /** The session it was written in, when a tutor ended a session's room with notes. */
  bookingId: string | null;
  /** The tutor's display name; null once their account is gone. */
  tutorName: string | null;
}

/** A note as staff see it in a learner's record. */
export interface SentFeedbackRecord extends FeedbackRecord {
  /** Whether the viewer may correct or withdraw it: they wrote it, or they are an Admin. */
  mine: boolean;
}

/** GET /api/feedback/learners/:studentId: the feedback the learner received, newest first. */
export interface SentFeedbackList {
  feedback: SentFeedbackRecord[];
}

/** PATCH /api/feedback/:id: the note as corrected. */
export interface FeedbackCorrected {
  feedback: SentFeedbackRecord;
}

/** GET /api/feedback: the learner's feedback, newest first. */
export interface FeedbackList {
  feedback: FeedbackRecord[];
}

/** POST /api/feedback (201): the note as stored. */
export interface FeedbackCreated {
  feedback: FeedbackRecord;
}

/** DELETE /api/feedback/:id: the id of the note withdrawn. */
export interface FeedbackWithdrawn {
  withdrawn: string;
}
