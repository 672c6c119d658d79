import { asc, desc, eq, sql } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client";
import { tutorFeedback } from "./feedback.tables";

/** The feedback module's table: tutor_feedback. A tutor's name is the profile module's. */
export function createFeedbackRepository(db: Database) {
  const listed = {
    id: tutorFeedback.id,
    chapterId: tutorFeedback.chapterId,
    dayId: tutorFeedback.dayId,
    feedback: tutorFeedback.feedback,
    createdAt: tutorFeedback.createdAt,
    correctedAt: tutorFeedback.correctedAt,
    bookingId: tutorFeedback.bookingId,
    tutorId: tutorFeedback.tutorId,
  };

  return {
    /** Stores a note; throws the foreign-key violation when the learner's account is gone. */
    async add(note: typeof tutorFeedback.$inferInsert, q: Queryable = db) {
      const [row] = await q.insert(tutorFeedback).values(note).returning();
      return row!;
    },

    /** The newest `limit` notes a learner received, newest first. */
    receivedBy(studentId: string, limit: number) {
      return db
        .select(listed)
        .from(tutorFeedback)
        .where(eq(tutorFeedback.studentId, studentId))
        .orderBy(desc(tutorFeedback.createdAt), desc(tutorFeedback.id))
        .limit(limit);
    },

    /** One note, with its learner's id; undefined when there is none. */
    async byId(id: string) {
      const [row] = await db
        .select({ ...listed, studentId: tutorFeedback.studentId })
        .from(tutorFeedback)
        .where(eq(tutorFeedback.id, id));
      return row;
    },

    /** Replaces a note's text and marks it corrected now; undefined when the note is gone. */
    async correct(id: string, feedback: string) {
      const [row] = await db
        .update(tutorFeedback)
        .set({ feedback, correctedAt: sql`now()` })
        .where(eq(tutorFeedback.id, id))
        .returning(listed);
      return row;
    },

    /** Deletes a note; false when it was already gone. */
    async remove(id: string) {
      const deleted = await db
        .delete(tutorFeedback)
        .where(eq(tutorFeedback.id, id))
        .returning({ id: tutorFeedback.id });
      return deleted.length > 0;
    },

    /** Every note a learner received, oldest first, for Export My Data. */
    allReceivedBy(studentId: string) {
      return db
        .select({
          chapterId: tutorFeedback.chapterId,
          dayId: tutorFeedback.dayId,
          feedback: tutorFeedback.feedback,
          createdAt: tutorFeedback.createdAt,
          correctedAt: tutorFeedback.correctedAt,
          tutorId: tutorFeedback.tutorId,
        })
        .from(tutorFeedback)
        .where(eq(tutorFeedback.studentId, studentId))
        .orderBy(asc(tutorFeedback.createdAt), asc(tutorFeedback.id));
    },
  };
}
