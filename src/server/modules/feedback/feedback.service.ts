import { displayName } from "#course/account-rules";
import { type Chapter, lookUpDay } from "#course/course";
import { requireAccount, type Staff, unlessUserVanished } from "#server/db/accounts";
import type { Database } from "#server/db/client";
import { badRequest } from "#server/http/errors";
import type { ProfileModule } from "#server/modules/profile/profile.module";
import type { ReviewModule } from "#server/modules/review/review.module";
import type { FeedbackInput, FeedbackRecord } from "./feedback.contract";
import { createFeedbackRepository } from "./feedback.repository";

/** The newest feedback a learner is shown; older feedback stays stored. */
export const FEEDBACK_LIST_LIMIT = 200;

export interface FeedbackDeps {
  db: Database;
  course: readonly Chapter[];
  review: Pick<ReviewModule["service"], "hasPhrase" | "pin">;
  /** The tutors' names. */
  profile: Pick<ProfileModule["service"], "namesOf">;
}

/** The day a note is about; an unknown chapter or day is a 400 naming it. */
function courseDay(course: readonly Chapter[], chapterId: string, dayId: string) {
  const found = lookUpDay(course, chapterId, dayId);
  if ("unknown" in found) throw badRequest(found.unknown);
  return found.day;
}

/** Tutor feedback (brief, change 1): stored for the learner the tutor chose, read by that learner only. */
export function createFeedbackService({ db, course, review, profile }: FeedbackDeps) {
  const notes = createFeedbackRepository(db);

  /** Each note with its tutor's display name in place of the id: null once their account is gone. */
  async function withTutorNames<T extends { tutorId: string | null }>(rows: readonly T[]) {
    const tutorIds = [...new Set(rows.flatMap((row) => (row.tutorId ? [row.tutorId] : [])))];
    const names = tutorIds.length > 0 ? await profile.namesOf(tutorIds) : new Map();
    return rows.map(({ tutorId, ...note }) => {
      const name = tutorId ? names.get(tutorId) : undefined;
      return { ...note, tutorName: name ? displayName(name) : null };
    });
  }

  return {
    /**
     * Stores the note and, when it names a phrase of the day, pins that phrase into the learner's
     * review, in one transaction: a pin that fails leaves no note.
     */
    async submit(staff: Staff, input: FeedbackInput): Promise<FeedbackRecord> {
      const day = courseDay(course, input.chapterId, input.dayId);
      const pin = input.pinPhraseId
        ? { chapterId: input.chapterId, dayId: input.dayId, phraseId: input.pinPhraseId }
        : undefined;
      if (pin && !review.hasPhrase(pin)) throw badRequest(`Day ${day.number} has no phrase "${pin.phraseId}" to pin.`);
      await requireAccount(db, input.studentId, staff);
      const stored = await db.transaction(async (tx) => {
        const note = await unlessUserVanished(() =>
          notes.add(
            {
              studentId: input.studentId,
              tutorId: staff.id,
              chapterId: input.chapterId,
              dayId: input.dayId,
              feedback: input.feedback,
            },
            tx,
          ),
        );
        if (pin) await review.pin(staff, input.studentId, pin, tx);
        return note;
      });
      const [record] = await withTutorNames([stored]);
      const { id, chapterId, dayId, feedback, createdAt, tutorName } = record!;
      return { id, chapterId, dayId, feedback, createdAt, tutorName };
    },

    /** The feedback a learner received, newest first. */
    async received(studentId: string): Promise<FeedbackRecord[]> {
      return withTutorNames(await notes.receivedBy(studentId, FEEDBACK_LIST_LIMIT));
    },

    /** Every note the learner received, oldest first, with its tutor's name: for Export My Data. */
    async exportFor(studentId: string) {
      return { feedbackReceived: await withTutorNames(await notes.allReceivedBy(studentId)) };
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;
