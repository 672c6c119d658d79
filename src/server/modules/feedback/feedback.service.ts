import { type Chapter, lookUpDay } from "#course/course";
import { requireAccount, type Staff, unlessUserVanished } from "#server/db/accounts";
import type { Database, Transaction } from "#server/db/client";
import { badRequest, forbidden, notFound } from "#server/http/errors";
import type { ReviewModule } from "#server/modules/review/review.module";
import type { UsersModule } from "#server/modules/users/users.module";
import type { FeedbackInput, FeedbackRecord, SentFeedbackRecord } from "./feedback.contract";
import { createFeedbackRepository } from "./feedback.repository";

/** The newest feedback a learner is shown; older feedback stays stored. */
export const FEEDBACK_LIST_LIMIT = 200;

export interface FeedbackDeps {
  db: Database;
  course: readonly Chapter[];
  review: Pick<ReviewModule["service"], "hasPhrase" | "pin">;
  /** The tutors' names, from the one owner of people. */
  users: Pick<UsersModule["service"], "people">;
}

const NO_SUCH_FEEDBACK = "There is no such feedback.";

/** What a Tutor who did not write a note is told when they try to change it. */
export const NOT_YOUR_FEEDBACK = "Only the tutor who sent this feedback, or an admin, can change it.";

/** A note's id is a UUID: anything else names no note, and is not sent to PostgreSQL. */
const isFeedbackId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

/** Whether `staff` may correct or withdraw a note `tutorId` wrote: its own tutor, or any Admin. */
const mayChange = (staff: Staff, tutorId: string | null) => staff.role === "Admin" || tutorId === staff.id;

/** The day a note is about; an unknown chapter or day is a 400 naming it. */
function courseDay(course: readonly Chapter[], chapterId: string, dayId: string) {
  const found = lookUpDay(course, chapterId, dayId);
  if ("unknown" in found) throw badRequest(found.unknown);
  return found.day;
}

/** Tutor feedback (brief, change 1): stored for the learner the tutor chose, read by that learner only. */
export function createFeedbackService({ db, course, review, users }: FeedbackDeps) {
  const notes = createFeedbackRepository(db);

  /** Each note with its tutor's display name in place of the id: null once their account is gone. */
  async function withTutorNames<T extends { tutorId: string | null }>(rows: readonly T[]) {
    const tutorIds = [...new Set(rows.flatMap((row) => (row.tutorId ? [row.tutorId] : [])))];
    const people = await users.people(tutorIds);
    return rows.map(({ tutorId, ...note }) => ({ ...note, tutorName: (tutorId && people.get(tutorId)?.name) ?? null }));
  }

  /** The note, once `staff` may change it: 404 when there is none, 403 when it is not theirs to change. */
  async function changeable(staff: Staff, noteId: string) {
    const note = isFeedbackId(noteId) ? await notes.byId(noteId) : undefined;
    if (!note) throw notFound(NO_SUCH_FEEDBACK);
    if (!mayChange(staff, note.tutorId)) throw forbidden(NOT_YOUR_FEEDBACK);
    const { studentId, ...shown } = note;
    await requireAccount(db, studentId, staff);
    return shown;
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
      const { id, chapterId, dayId, feedback, createdAt, correctedAt, bookingId, tutorName } = record!;
      return { id, chapterId, dayId, feedback, createdAt, correctedAt, bookingId, tutorName };
    },

    /**
     * The feedback a learner received, newest first, as staff who may act on them see it: each note
     * says whether the viewer may change it.
     */
    async sentTo(staff: Staff, studentId: string): Promise<SentFeedbackRecord[]> {
      await requireAccount(db, studentId, staff);
      const rows = await notes.receivedBy(studentId, FEEDBACK_LIST_LIMIT);
      return withTutorNames(rows.map((row) => ({ ...row, mine: mayChange(staff, row.tutorId) })));
    },

    /**
     * Corrects a note's text (its own tutor or an Admin, on a learner they may act on) and marks it
     * corrected; the same text again changes nothing.
     */
    async correct(staff: Staff, noteId: string, text: string): Promise<SentFeedbackRecord> {
      const note = await changeable(staff, noteId);
      const corrected = note.feedback === text ? note : await notes.correct(noteId, text);
      if (!corrected) throw notFound(NO_SUCH_FEEDBACK);
      const [record] = await withTutorNames([{ ...corrected, mine: true }]);
      return record!;
    },

    /** Withdraws a note (its own tutor or an Admin): its learner no longer sees it. */
    async withdraw(staff: Staff, noteId: string): Promise<void> {
      await changeable(staff, noteId);
      if (!(await notes.remove(noteId))) throw notFound(NO_SUCH_FEEDBACK);
    },

    /**
     * A session's notes as the day's feedback, written in the transaction that ends the session
     * (the calls module, which has checked that `staff` is the session's tutor or an Admin).
     */
    async fromSession(
      staff: Staff,
      note: { studentId: string; chapterId: string; dayId: string; feedback: string; bookingId: string },
      tx: Transaction,
    ): Promise<{ id: string }> {
      courseDay(course, note.chapterId, note.dayId);
      const stored = await unlessUserVanished(() => notes.add({ ...note, tutorId: staff.id }, tx));
      return { id: stored.id };
    },

    /** A session's note as its learner reads it now (corrected, or undefined once withdrawn). */
    async sessionNote(noteId: string): Promise<string | undefined> {
      return (await notes.byId(noteId))?.feedback;
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
