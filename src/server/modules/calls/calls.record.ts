import { randomUUID } from "node:crypto";
import { type Chapter, type Day, dayBlocks, findDay } from "#course/course";
import { PINNED_AT_OR_BELOW } from "#course/speaking";
import { requireAccount, type Staff } from "#server/db/accounts";
import type { Database } from "#server/db/client";
import type { Emitter } from "#server/events/events";
import type { SessionUser } from "#server/http/context";
import { badRequest, HttpError } from "#server/http/errors";
import type { AnswersModule } from "#server/modules/answers/answers.module";
import type { BookingView } from "#server/modules/bookings/bookings.contract";
import type { FeedbackModule } from "#server/modules/feedback/feedback.module";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { ReviewModule } from "#server/modules/review/review.module";
import type { SpeakingModule } from "#server/modules/speaking/speaking.module";
import { type CueCard, callsEvents, type RateInput, type SessionBrief, type SessionRecord } from "./calls.contract";
import type { CallsRepository, RatingRow, RecordRow } from "./calls.repository";
import type { Rooms } from "./calls.rooms";

export interface RecordDeps {
  db: Database;
  course: readonly Chapter[];
  progress: Pick<ProgressModule["service"], "moveTaskForward">;
  review: Pick<ReviewModule["service"], "pin" | "struggles">;
  answers: Pick<AnswersModule["service"], "mistakesOfDay">;
  speaking: Pick<SpeakingModule["service"], "latestTakesOf">;
  feedback: Pick<FeedbackModule["service"], "fromSession" | "sessionNote">;
  /** Records that a session ended, in the end's transaction: the speaking module tells the learner. */
  events: Emitter;
}

const ONLY_THE_TUTOR = "Only the session's tutor rates its role-plays and writes its notes.";
const ENDED = "This session has ended: its ratings and notes have gone to the learner.";

/** The role-plays of a booking's day, as cue cards without ratings. */
export function cueCardsOf(day: Day): CueCard[] {
  return dayBlocks(day).flatMap(({ block }) => {
    if (block.type !== "role-play") return [];
    const cues = new Map<string, string>();
    for (const turn of block.script ?? []) if (turn.type === "learner") cues.set(turn.phraseId, turn.cue);
    return [
      {
        taskId: block.task.id,
        title: block.title,
        description: block.description,
        phrases: block.phrases.map((phrase) => ({
          id: phrase.id,
          malay: phrase.malay,
          english: phrase.english,
          cue: cues.get(phrase.id) ?? null,
          rating: null,
        })),
      },
    ];
  });
}

/** The role-plays whose every phrase is rated. */
function fullyRated(cards: readonly CueCard[], ratings: readonly RatingRow[]): string[] {
  const rated = new Set(ratings.map((rating) => `${rating.taskId}/${rating.lineId}`));
  return cards
    .filter((card) => card.phrases.every((phrase) => rated.has(`${card.taskId}/${phrase.id}`)))
    .map((card) => card.taskId);
}

/** What the record's use cases take: the record's dependencies, the calls repository, the rooms, the clock. */
type SessionRecordDeps = RecordDeps & { calls: CallsRepository; rooms: Rooms; now: () => Date };

/** The booking's day in the course; 409 once it is no longer there. */
function dayOf(course: readonly Chapter[], booking: BookingView): Day {
  const found = findDay(course, booking.chapterId, booking.dayId);
  if (!found) throw new HttpError(409, "DAY_GONE", "This session's day is no longer in the course.");
  return found.day;
}

/**
 * The booking's tutor, or an Admin, as staff; 403 for its learner, and for a Tutor whose learner
 * is staff (an Admin or Tutor who booked as a learner): the record completes the learner's
 * tasks, pins into their review and writes them feedback, which decision 042 keeps a Tutor from
 * doing to staff (requireAccount, as the direct routes check it). The room itself stays theirs.
 */
async function staffOf(db: Database, user: SessionUser, booking: BookingView): Promise<Staff> {
  if (booking.youAre === "learner") throw new HttpError(403, "FORBIDDEN", ONLY_THE_TUTOR);
  const staff: Staff = { id: user.id, role: user.role };
  await requireAccount(db, learnerOf(booking), staff);
  return staff;
}

/** The booking's learner; 409 once their account is deleted: nothing is left to brief or to rate. */
function learnerOf(booking: BookingView): string {
  if (booking.learner.id === null) {
    throw new HttpError(409, "LEARNER_GONE", "This session's learner has closed their account.");
  }
  return booking.learner.id;
}

/** Ratings and notes are taken from when the room opens, for a session taking place, until it ends. */
function assertUnderway(booking: BookingView, opensAt: Date, now: () => Date) {
  if (booking.status !== "confirmed") {
    throw new HttpError(409, "ROOM_NOT_OPEN", "This session is not taking place.");
  }
  if (now().getTime() < opensAt.getTime()) {
    throw new HttpError(409, "ROOM_NOT_OPEN", "Ratings and notes open with the session's room.");
  }
}

/** The record as this side sees it: ratings and notes for the tutor's side, and for the learner once ended. */
async function recordFor(deps: SessionRecordDeps, booking: BookingView, row?: RecordRow): Promise<SessionRecord> {
  const { calls } = deps;
  const [stored, ratings] = await Promise.all([
    row ? Promise.resolve(row) : calls.recordOf(booking.id),
    calls.ratingsOf(booking.id),
  ]);
  const ended = stored?.endedAt ?? null;
  const tutorSide = booking.youAre !== "learner";
  const cards = cueCardsOf(dayOf(deps.course, booking));
  const shown = tutorSide || ended !== null;
  const ratingOf = new Map(ratings.map((rating) => [`${rating.taskId}/${rating.lineId}`, rating.rating]));
  const rolePlays = cards.map((card) => ({
    ...card,
    phrases: card.phrases.map((phrase) => ({
      ...phrase,
      rating: shown ? (ratingOf.get(`${card.taskId}/${phrase.id}`) ?? null) : null,
    })),
  }));
  let notes: string | null = null;
  if (tutorSide) notes = stored?.notes ?? "";
  else if (ended && stored?.feedbackId) notes = (await deps.feedback.sessionNote(stored.feedbackId)) ?? null;
  return {
    rolePlays,
    notes,
    notesSavedAt: tutorSide ? (stored?.notesSavedAt?.toISOString() ?? null) : null,
    endedAt: ended ? ended.toISOString() : null,
    completedTaskIds: ended ? fullyRated(cards, ratings) : [],
  };
}

/**
 * A session's record beside its room (docs/decisions/051): the tutor rates the day's role-play
 * phrases 1-5 and writes notes as the call goes, with a brief of what the learner struggles with;
 * ending the session completes each fully rated role-play's task, pins every phrase rated 2 or
 * less into the learner's review "from your tutor", makes the notes the day's feedback, and records
 * that the session ended (calls.session-ended, whose handler tells the learner), all in one transaction.
 */
export function createSessionRecords(deps: SessionRecordDeps) {
  return {
    /** The record as this side sees it: ratings and notes for the tutor's side, and for the learner once ended. */
    recordFor: (booking: BookingView, row?: RecordRow) => recordFor(deps, booking, row),
    ...briefing(deps),
    ...ratingAndNotes(deps),
    ...ending(deps),
  };
}

/** The brief of what the learner struggles with. */
function briefing(deps: SessionRecordDeps) {
  return {
    /** What the learner struggles with on the session's day: for its tutor and Admins. */
    async brief(user: SessionUser, booking: BookingView): Promise<SessionBrief> {
      const staff = await staffOf(deps.db, user, booking);
      const day = dayOf(deps.course, booking);
      const target = { chapterId: booking.chapterId, dayId: booking.dayId };
      const learnerId = learnerOf(booking);
      const lineIds = cueCardsOf(day).flatMap((card) => card.phrases.map((phrase) => phrase.id));
      const [mistakes, struggles, takes] = await Promise.all([
        deps.answers.mistakesOfDay(learnerId, target),
        deps.review.struggles(staff, learnerId),
        deps.speaking.latestTakesOf(learnerId, target, lineIds),
      ]);
      return { mistakes, weakest: struggles.weakest, takes };
    },
  };
}

/** The tutor's ratings and notes as the call goes. */
function ratingAndNotes(deps: SessionRecordDeps) {
  const { db, calls, now } = deps;
  return {
    /** Rates a phrase of one of the day's role-plays (null clears it). 409 once the session has ended. */
    async rate(user: SessionUser, booking: BookingView, opensAt: Date, input: RateInput): Promise<SessionRecord> {
      await staffOf(db, user, booking);
      assertUnderway(booking, opensAt, now);
      const card = cueCardsOf(dayOf(deps.course, booking)).find((each) => each.taskId === input.taskId);
      if (!card) throw badRequest(`"${input.taskId}" is not a role-play of this session's day.`);
      if (!card.phrases.some((phrase) => phrase.id === input.lineId)) {
        throw badRequest(`"${input.lineId}" is not a phrase of "${card.title}".`);
      }
      await db.transaction(async (tx) => {
        if (!(await calls.holdOpenRecord(tx, booking.id))) throw new HttpError(409, "SESSION_ENDED", ENDED);
        await calls.rate(tx, booking.id, input, input.rating);
      });
      return recordFor(deps, booking);
    },

    /** Saves the tutor's notes as they type. 409 once the session has ended. */
    async saveNotes(user: SessionUser, booking: BookingView, opensAt: Date, notes: string): Promise<SessionRecord> {
      await staffOf(db, user, booking);
      assertUnderway(booking, opensAt, now);
      const row = await calls.saveNotes(booking.id, notes, now());
      if (!row) throw new HttpError(409, "SESSION_ENDED", ENDED);
      return recordFor(deps, booking, row);
    },
  };
}

/** The session's end, and what it does for the learner. */
function ending(deps: SessionRecordDeps) {
  const { db, calls, rooms, now } = deps;
  return {
    /**
     * Ends the session: each role-play with every phrase rated completes its task for the learner;
     * each phrase rated PINNED_AT_OR_BELOW or less is pinned into their review; notes, when there
     * are any, become the day's feedback; and the session's end is recorded (calls.session-ended),
     * for the speaking module to tell the learner. One transaction; then the room hears that the
     * session ended.
     */
    async end(user: SessionUser, booking: BookingView, opensAt: Date): Promise<SessionRecord> {
      const staff = await staffOf(db, user, booking);
      assertUnderway(booking, opensAt, now);
      const cards = cueCardsOf(dayOf(deps.course, booking));
      const learnerId = learnerOf(booking);
      const target = { chapterId: booking.chapterId, dayId: booking.dayId };
      const at = now();
      const ended = await db.transaction(async (tx) => {
        if (!(await calls.holdOpenRecord(tx, booking.id))) throw new HttpError(409, "SESSION_ENDED", ENDED);
        const ratings = await calls.ratingsOf(booking.id, tx);
        for (const taskId of fullyRated(cards, ratings)) {
          await deps.progress.moveTaskForward(learnerId, { ...target, taskId }, "completed", tx, "staff");
        }
        const pinned = new Set<string>();
        for (const rating of ratings) {
          if (rating.rating > PINNED_AT_OR_BELOW || pinned.has(rating.lineId)) continue;
          pinned.add(rating.lineId);
          await deps.review.pin(staff, learnerId, { ...target, phraseId: rating.lineId }, tx, {
            rating: rating.rating,
            comment: null,
            takeId: null,
          });
        }
        const row = await calls.end(tx, booking.id, staff.id, at);
        const notes = row.notes.trim();
        if (notes) {
          const note = await deps.feedback.fromSession(
            staff,
            { studentId: learnerId, ...target, feedback: notes, bookingId: booking.id },
            tx,
          );
          await calls.linkFeedback(tx, booking.id, note.id);
        }
        await deps.events.emit(tx, callsEvents.sessionEnded, {
          bookingId: booking.id,
          learnerId,
          staffId: staff.id,
          ...target,
          notesLeft: notes !== "",
          linesPinned: pinned.size > 0,
        });
        return row;
      });
      await rooms.announceEnded(booking.id, staff.id, randomUUID());
      return recordFor(deps, booking, ended);
    },
  };
}

export type SessionRecords = ReturnType<typeof createSessionRecords>;
