import { desc, eq } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import { displayName } from "#course/account-rules";
import type { Chapter } from "#course/course";
import { FEEDBACK_MAX_LENGTH } from "#course/feedback";
import type { Database } from "#server/db/client";
import { tutorFeedback, user } from "#server/db/schema";
import { badRequest } from "#server/http/errors";
import { findCourseDay } from "#server/modules/progress/progress.service";
import type { ReviewService } from "#server/modules/review/review.service";
import { requireAccount, unlessUserVanished } from "#server/modules/users/users.service";

/** The newest feedback a learner is shown; older feedback stays stored. */
export const FEEDBACK_LIST_LIMIT = 200;

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
    /** A phrase of the day to pin into the learner's review with the note (review.service.ts, pin). */
    pinPhraseId: idField("Phrase id").optional(),
  })
  .strict();

export type FeedbackInput = z.infer<typeof feedbackInputSchema>;

/** Feedback as its learner reads it; in JSON, createdAt becomes the ISO string of src/course/feedback.ts. */
export interface FeedbackRecord {
  id: string;
  chapterId: string;
  dayId: string;
  feedback: string;
  createdAt: Date;
  /** The tutor's display name; null once their account is gone. */
  tutorName: string | null;
}

const tutor = alias(user, "tutor");

/** Tutor feedback (brief, change 1): stored for the learner the tutor chose, read by that learner only. */
export function createFeedbackService(
  db: Database,
  course: readonly Chapter[],
  review: Pick<ReviewService, "hasPhrase" | "pin">,
) {
  async function tutorNameOf(tutorId: string): Promise<string | null> {
    const [row] = await db
      .select({ firstName: user.firstName, lastName: user.lastName, nickname: user.nickname })
      .from(user)
      .where(eq(user.id, tutorId));
    return row ? displayName(row) : null;
  }

  return {
    /** Stores the note and, when it names a phrase of the day, pins that phrase into the learner's review. */
    async submit(tutorId: string, input: FeedbackInput): Promise<FeedbackRecord> {
      const { day } = findCourseDay(course, input.chapterId, input.dayId);
      const pin = input.pinPhraseId
        ? { chapterId: input.chapterId, dayId: input.dayId, phraseId: input.pinPhraseId }
        : undefined;
      if (pin && !review.hasPhrase(pin)) throw badRequest(`Day ${day.number} has no phrase "${pin.phraseId}" to pin.`);
      await requireAccount(db, input.studentId);
      const [row] = await unlessUserVanished(() =>
        db
          .insert(tutorFeedback)
          .values({
            studentId: input.studentId,
            tutorId,
            chapterId: input.chapterId,
            dayId: input.dayId,
            feedback: input.feedback,
          })
          .returning(),
      );
      const stored = row!;
      if (pin) await review.pin(tutorId, input.studentId, pin);
      return {
        id: stored.id,
        chapterId: stored.chapterId,
        dayId: stored.dayId,
        feedback: stored.feedback,
        createdAt: stored.createdAt,
        tutorName: await tutorNameOf(tutorId),
      };
    },

    /** The feedback a learner received, newest first. */
    async received(studentId: string): Promise<FeedbackRecord[]> {
      const rows = await db
        .select({
          id: tutorFeedback.id,
          chapterId: tutorFeedback.chapterId,
          dayId: tutorFeedback.dayId,
          feedback: tutorFeedback.feedback,
          createdAt: tutorFeedback.createdAt,
          tutorId: tutor.id,
          firstName: tutor.firstName,
          lastName: tutor.lastName,
          nickname: tutor.nickname,
        })
        .from(tutorFeedback)
        .leftJoin(tutor, eq(tutor.id, tutorFeedback.tutorId))
        .where(eq(tutorFeedback.studentId, studentId))
        .orderBy(desc(tutorFeedback.createdAt), desc(tutorFeedback.id))
        .limit(FEEDBACK_LIST_LIMIT);
      return rows.map(({ tutorId, firstName, lastName, nickname, ...feedback }) => ({
        ...feedback,
        tutorName: tutorId ? displayName({ firstName, lastName, nickname }) : null,
      }));
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
