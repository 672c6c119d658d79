import { SESSION_RATING_EDIT_HOURS } from "#course/calls";
import { type Chapter, findDay } from "#course/course";
import { can } from "#course/roles";
import type { SessionUser } from "#server/http/context";
import { forbidden, HttpError } from "#server/http/errors";
import type { BookingView, HeldSession } from "#server/modules/bookings/bookings.contract";
import type { BookingsModule } from "#server/modules/bookings/bookings.module";
import type { FeedbackModule } from "#server/modules/feedback/feedback.module";
import type { UsersModule } from "#server/modules/users/users.module";
import type {
  RatingComment,
  SessionRatingGiven,
  SessionRatingInput,
  TutorRatings,
  TutorsRatings,
} from "./calls.contract";
import { cueCardsOf } from "./calls.record";
import type { GivenRatingRow, SessionRatingsRepository } from "./session-ratings.repository";

/** The comments a tutor's ratings show, newest first. */
export const RECENT_COMMENTS = 5;
const EDIT_MS = SESSION_RATING_EDIT_HOURS * 60 * 60_000;

export interface HeldDeps {
  course: readonly Chapter[];
  ratings: SessionRatingsRepository;
  bookings: Pick<BookingsModule["service"], "get" | "tutors">;
  feedback: Pick<FeedbackModule["service"], "sessionNote">;
  users: Pick<UsersModule["service"], "people">;
  now: () => Date;
}

const ONLY_THE_LEARNER = "Only the session's learner rates it.";
const NOT_HELD = "You can rate a session once it has been held: its tutor ends it in the session room.";
const RATING_CLOSED = `A rating can be changed for ${SESSION_RATING_EDIT_HOURS} hours after it was first given: yours can no longer be changed.`;

/** "Day 1: Kopitiam", or the day's id once the course no longer has it. */
function dayTitleOf(course: readonly Chapter[], target: { chapterId: string; dayId: string }): string {
  const found = findDay(course, target.chapterId, target.dayId);
  return found ? `Day ${found.day.number}: ${found.day.subtopic}` : target.dayId;
}

const givenOf = (row: { stars: number; comment: string | null; givenAt: Date }): SessionRatingGiven => ({
  stars: row.stars,
  comment: row.comment,
  givenAt: row.givenAt.toISOString(),
  editableUntil: new Date(row.givenAt.getTime() + EDIT_MS).toISOString(),
});

/**
 * A session held (docs/decisions/083-a-session-held.md): its record as each side reads it on the
 * session's card, the sessions each tutor held, and the learner's rating of it, which its tutor reads
 * among their ratings and Admins among every tutor's.
 */
export function createHeldSessions(deps: HeldDeps) {
  return { ...heldRecords(deps), ...learnersRatings(deps), ...tutorsRatings(deps) };
}

/** Sessions held as the bookings module shows them: on their cards, in the tutor's week, on tutors' cards. */
function heldRecords(deps: HeldDeps) {
  const { course, ratings } = deps;
  return {
    /** The sessions held among these, each as its viewer's side reads it (bookings' views). */
    async heldOf(sessions: readonly { id: string; youAre: BookingView["youAre"] }[]) {
      const rows = await ratings.heldOf(sessions.map((session) => session.id));
      const learnerSide = (bookingId: string) =>
        sessions.find((session) => session.id === bookingId)?.youAre === "learner";
      // The learner reads the feedback the notes became, as its tutor last corrected it: read together.
      const feedback = await Promise.all(
        rows.map((row) =>
          learnerSide(row.bookingId) && row.feedbackId ? deps.feedback.sessionNote(row.feedbackId) : undefined,
        ),
      );
      const held = new Map<string, HeldSession>();
      for (const [index, row] of rows.entries()) {
        const found = findDay(course, row.chapterId, row.dayId);
        const phrases = found ? cueCardsOf(found.day).reduce((sum, card) => sum + card.phrases.length, 0) : 0;
        const notes = learnerSide(row.bookingId) ? (feedback[index] ?? null) : row.notes.trim() || null;
        held.set(row.bookingId, {
          endedAt: row.endedAt.toISOString(),
          lines: {
            rated: row.rated,
            of: phrases,
            average: row.average === null ? null : Math.round(row.average * 10) / 10,
          },
          notes,
          rating:
            row.stars !== null && row.givenAt ? givenOf({ ...row, stars: row.stars, givenAt: row.givenAt }) : null,
        });
      }
      return held;
    },

    daysHeldBy: (learnerIds: readonly string[]) => ratings.daysHeldBy(learnerIds),
    heldCounts: (tutorIds: readonly string[]) => ratings.heldCounts(tutorIds),
  };
}

/** The learner's rating of a session held, and their part of the export. */
function learnersRatings(deps: HeldDeps) {
  const { bookings, ratings, now } = deps;
  return {
    /**
     * The learner rates a session held: once, changed for SESSION_RATING_EDIT_HOURS after first
     * given. 404 to anyone but its learner, tutor and Admins; 403 to its tutor and Admins; 409 before
     * it was held and once the rating can no longer be changed.
     */
    async rateSession(user: SessionUser, bookingId: string, input: SessionRatingInput): Promise<SessionRatingGiven> {
      const booking = await bookings.get(user, bookingId);
      if (booking.youAre !== "learner") throw forbidden(ONLY_THE_LEARNER);
      if (booking.status !== "confirmed" || !booking.held) throw new HttpError(409, "NOT_HELD", NOT_HELD);
      const at = now();
      const row = await ratings.give(
        { bookingId: booking.id, learnerId: user.id, stars: input.stars, comment: input.comment },
        at,
        new Date(at.getTime() - EDIT_MS),
      );
      if (!row) throw new HttpError(409, "RATING_CLOSED", RATING_CLOSED);
      return givenOf(row);
    },

    /** The ratings the learner gave, for Export My Data. */
    async exportFor(userId: string) {
      return (await ratings.givenBy(userId)).map((row) => ({
        bookingId: row.bookingId,
        chapterId: row.chapterId,
        dayId: row.dayId,
        sessionStartsAt: row.startsAt,
        stars: row.stars,
        comment: row.comment,
        givenAt: row.givenAt,
        updatedAt: row.updatedAt,
      }));
    },
  };
}

/** How learners rated tutors: a tutor's own ratings, and every tutor's for Admins. */
function tutorsRatings(deps: HeldDeps) {
  const { course, ratings, bookings, users } = deps;

  /** How learners rated these tutors (every tutor rated, when null), with their sessions held. */
  async function ratingsOf(tutorIds: readonly string[] | null): Promise<Map<string, TutorRatings>> {
    const [summaries, recent] = await Promise.all([
      ratings.summariesOf(tutorIds),
      ratings.recentCommentsOf(tutorIds, RECENT_COMMENTS),
    ]);
    const ids = [...new Set([...(tutorIds ?? []), ...summaries.map((row) => row.tutorId)])];
    const held = await ratings.heldCounts(ids);
    const comment = (row: GivenRatingRow): RatingComment => ({
      stars: row.stars,
      comment: row.comment ?? "",
      dayTitle: dayTitleOf(course, row),
      sessionStartsAt: row.startsAt.toISOString(),
      givenAt: row.givenAt.toISOString(),
    });
    return new Map(
      ids.map((id) => {
        const summary = summaries.find((row) => row.tutorId === id);
        return [
          id,
          {
            average: summary ? Math.round(summary.average * 10) / 10 : null,
            count: summary?.count ?? 0,
            sessionsHeld: held.get(id) ?? 0,
            recent: recent.filter((row) => row.tutorId === id).map(comment),
          },
        ];
      }),
    );
  }

  return {
    /** How learners rated the tutor's own sessions. */
    async myRatings(tutor: SessionUser): Promise<TutorRatings> {
      if (!can(tutor.role, "tutor:view")) throw forbidden("You do not have permission to do that.");
      return (await ratingsOf([tutor.id])).get(tutor.id)!;
    },

    /** Every tutor's ratings, by name: those who take bookings, and any other tutor ever rated. */
    async everyTutorsRatings(): Promise<TutorsRatings> {
      const published = await bookings.tutors();
      const rated = (await ratings.summariesOf(null)).map((row) => row.tutorId);
      const ids = [...new Set([...published.map((card) => card.id), ...rated])];
      const [byTutor, people] = await Promise.all([ratingsOf(ids), users.people(ids)]);
      return {
        tutors: ids
          .flatMap((id) => {
            const person = people.get(id);
            if (!person) return [];
            const tutor = { id, name: person.name || "A tutor", photo: person.avatar?.small ?? null };
            return [{ tutor, ...byTutor.get(id)! }];
          })
          .sort((a, b) => a.tutor.name.localeCompare(b.tutor.name)),
      };
    },
  };
}

export type HeldSessionsService = ReturnType<typeof createHeldSessions>;
