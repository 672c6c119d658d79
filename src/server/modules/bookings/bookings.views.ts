import type { SessionUser } from "#server/http/context";
import type { BookingView, TutorWeek } from "./bookings.contract";
import { type BookingsKit, DAY, partOf } from "./bookings.kit";
import { inviteUidOf, type Notices } from "./bookings.notices";
import { gonePerson } from "./bookings.parties";
import { waitingLearners } from "./bookings.waiting";
import { startOfDayIn } from "./slots";

/** How long past bookings stay in "my sessions". */
const RECENT_DAYS = 14;

/**
 * One session as the user's calendar feed shows it (the calendar module): the event's UID and
 * SEQUENCE as its invites carry them, its times, whether it still takes place, its day and the other side.
 */
export interface CalendarSession {
  id: string;
  /** The UID of every invite of the booking (bookings.notices.ts). */
  uid: string;
  sequence: number;
  startsAt: Date;
  endsAt: Date;
  cancelled: boolean;
  /** Its day in the course, whose live-session page holds the learner's card. */
  chapterId: string;
  dayId: string;
  dayTitle: string;
  youAre: "learner" | "tutor";
  /** The other side's name ("A former tutor" once their account is gone). */
  otherName: string;
}

/** What the sides of sessions see of them: their sessions, one booking, its invite, a tutor's week, their calendar. */
export function createViews(kit: BookingsKit, { inviteOf }: Notices) {
  const { bookings, now, dayTitle, readingZonesOf, partiesOf, viewsOf, viewOf, readBooking } = kit;

  return {
    /**
     * The caller's sessions, as learner or as tutor: upcoming and of the last two weeks, in order;
     * and, as learner, every session held before that: the record of its day (decision 083).
     */
    async mine(user: SessionUser): Promise<{ timeZone: string; bookings: BookingView[] }> {
      const from = new Date(now().getTime() - RECENT_DAYS * DAY);
      const [rows, older, zones] = await Promise.all([
        bookings.bookingsOf(user.id, from),
        bookings.pastSessionsOfLearner(user.id, from),
        readingZonesOf([user.id]),
      ]);
      const views = await viewsOf([...older, ...rows], user);
      const recent = new Set(rows.map((row) => row.id));
      return { timeZone: zones.get(user.id)!, bookings: views.filter((view) => recent.has(view.id) || view.held) };
    },

    /** The zone `user` reads session times in: their hours' zone for a tutor who saved some, else their settings'. */
    async readingZone(user: SessionUser): Promise<string> {
      return (await readingZonesOf([user.id])).get(user.id)!;
    },

    async get(user: SessionUser, bookingId: string): Promise<BookingView> {
      return viewOf(await readBooking(user, bookingId), user);
    },

    /**
     * The user's sessions as learner and as tutor that end after `from`, confirmed or cancelled, in
     * order: one per calendar event (a move's earlier row is "moved", a proposal not yet accepted "proposed").
     */
    async calendarOf(userId: string, from: Date): Promise<CalendarSession[]> {
      const rows = await bookings.bookingsOf(userId, from);
      const parties = await partiesOf(rows.flatMap((row) => [row.learnerId, row.tutorId]));
      return rows.map((row) => {
        const youAre = row.learnerId === userId ? "learner" : "tutor";
        const otherId = youAre === "learner" ? row.tutorId : row.learnerId;
        const other =
          (otherId && parties.get(otherId)) || gonePerson(otherId, youAre === "learner" ? "tutor" : "learner");
        return {
          id: row.id,
          uid: inviteUidOf(row),
          sequence: row.sequence,
          startsAt: row.startsAt,
          endsAt: row.endsAt,
          cancelled: row.status !== "confirmed",
          chapterId: row.chapterId,
          dayId: row.dayId,
          dayTitle: dayTitle(row),
          youAre,
          otherName: other.name,
        };
      });
    },

    /** The booking's calendar event as it stands, with the caller's links: a REQUEST, or a CANCEL once cancelled. */
    async invite(user: SessionUser, bookingId: string): Promise<string> {
      const row = await readBooking(user, bookingId);
      const parties = await partiesOf([row.learnerId, row.tutorId]);
      const learner = (row.learnerId && parties.get(row.learnerId)) || gonePerson(row.learnerId, "learner");
      const tutor = (row.tutorId && parties.get(row.tutorId)) || gonePerson(row.tutorId, "tutor");
      const side = partOf(row, user) === "learner" ? "learner" : "tutor";
      return inviteOf(row, learner, tutor, row.status !== "confirmed" ? "CANCEL" : "REQUEST", side);
    },

    /**
     * The tutor's own work: their sessions from the start of their today to a week on, and the
     * learners who finished a day's self-study and have no session booked for it.
     */
    async week(tutor: SessionUser): Promise<TutorWeek> {
      const timeZone = (await readingZonesOf([tutor.id])).get(tutor.id)!;
      const at = now();
      const midnight = startOfDayIn(at, timeZone);
      const sessions = await bookings.sessionsOf(tutor.id, midnight, new Date(midnight.getTime() + 8 * DAY));
      const waiting = await waitingLearners(kit, at);
      return { timeZone, sessions: await viewsOf(sessions, tutor), waiting };
    },
  };
}
