import { asc, desc, eq } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client";
import { tutorFeedback } from "#server/db/schema";

/** The feedback module's table: tutor_feedback. A tutor's name is the profile module's. */
export function createFeedbackRepository(db: Database) {
  const listed = {
    id: tutorFeedback.id,
    chapterId: tutorFeedback.chapterId,
    dayId: tutorFeedback.dayId,
    feedback: tutorFeedback.feedback,
    createdAt: tutorFeedback.createdAt,
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

    /** Every note a learner received, oldest first, for Export My Data. */
    allReceivedBy(studentId: string) {
      return db
        .select({
          chapterId: tutorFeedback.chapterId,
          dayId: tutorFeedback.dayId,
          feedback: tutorFeedback.feedback,
          createdAt: tutorFeedback.createdAt,
          tutorId: tutorFeedback.tutorId,
        })
        .from(tutorFeedback)
        .where(eq(tutorFeedback.studentId, studentId))
        .orderBy(asc(tutorFeedback.createdAt), asc(tutorFeedback.id));
    },
  };
}
