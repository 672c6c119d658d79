/** Longest tutor feedback the server stores; the feedback box stops there too. */
export const FEEDBACK_MAX_LENGTH = 4000;

/** Feedback a tutor left for a learner, as GET /api/feedback answers it. */
export interface Feedback {
  id: string;
  chapterId: string;
  dayId: string;
  feedback: string;
  /** ISO 8601. */
  createdAt: string;
  /** The tutor's display name; null once their account is gone. */
  tutorName: string | null;
}
