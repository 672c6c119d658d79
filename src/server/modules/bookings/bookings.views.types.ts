import type { Availability, BookingChangeKind, BookingStatus, NoShowParty } from "#course/bookings";
import type { UserSummary } from "#course/users";

/** What the bookings API answers with: people, slots and bookings as each side sees them (re-exported by bookings.contract). */

/** A person as the other side of a booking sees them. */
export interface BookingPerson {
  id: string;
  name: string;
  /** Their avatar (the small image), if they have one. */
  photo: string | null;
}

/** A side of a booking: `id` null once that side's account is deleted (named "A former tutor"). */
export interface BookingSide extends Omit<BookingPerson, "id"> {
  id: string | null;
}

/** A tutor as learners see them when choosing. */
export interface TutorCard extends BookingPerson {
  bio: string;
  languages: string[];
  timeZone: string;
  sessionMinutes: number;
  photoLarge: string | null;
  /** The sessions they have held: ended in the room with its record (decision 083). */
  sessionsHeld: number;
}

export interface TutorHours {
  profile: { bio: string; languages: string[]; photo: string | null };
  availability: Availability;
  /** False until the tutor first saves: the defaults are shown, and learners do not see them yet. */
  saved: boolean;
}

export interface Slot {
  startsAt: string;
  endsAt: string;
  tutorId: string;
}

/** A tutor a learner may book, with the first time they are free for this learner. */
export interface BookableTutor extends TutorCard {
  /** The start of their first open slot, or null when they have none within their horizon. */
  nextAvailable: string | null;
}

export interface DaySlots {
  /** The zone the learner reads times in (their settings). */
  timeZone: string;
  /** The tutor asked for, or null for the first available of every tutor. */
  tutorId: string | null;
  tutors: BookableTutor[];
  slots: Slot[];
}

export interface BookingChange {
  kind: BookingChangeKind;
  /** Who, as the viewer reads it: "You", the other side's name, or "An administrator". */
  by: string;
  at: string;
  reason: string | null;
}

/** A booking as one of its two sides (or an Admin) sees it. */
export interface BookingView {
  id: string;
  chapterId: string;
  dayId: string;
  /** "Day 1: Kopitiam" */
  dayTitle: string;
  startsAt: string;
  endsAt: string;
  status: BookingStatus;
  noShow: NoShowParty | null;
  /** Who marked the no-show, as the viewer reads it ("You", the other side's name, "An administrator"), and when. */
  noShowMarked: { by: string; at: string } | null;
  tutor: BookingSide;
  learner: BookingSide;
  /** The viewer's part in it. */
  youAre: "learner" | "tutor" | "admin";
  /**
   * Another time one side asked for, waiting for the other's answer: `by` "tutor" when the tutor (or
   * an Admin) proposed it, "learner" when the learner requested it.
   */
  proposal: { startsAt: string; endsAt: string; reason: string | null; by: "learner" | "tutor" } | null;
  /** Until when the learner may cancel it (12 h before the start). */
  freeCancelUntil: string;
  changes: BookingChange[];
  /** Set once its tutor ended it in the room (the calls module's record): the session was held (decision 083). */
  held: HeldSession | null;
}

/** A session held, as its side reads it: when it ended, the tutor's ratings of its lines and notes, the learner's rating. */
export interface HeldSession {
  endedAt: string;
  /** The tutor's ratings of the day's role-play phrases: how many of them were rated, and their average. */
  lines: { rated: number; of: number; average: number | null };
  /**
   * The tutor's notes: as written, for the tutor's side; for the learner, the feedback they became
   * (as its tutor last corrected it; null when there were none or it was withdrawn).
   */
  notes: string | null;
  /** The learner's rating of the session, once given. */
  rating: SessionRatingGiven | null;
}

/** The learner's rating of a session held: 1-5 stars and an optional comment, changed until `editableUntil`. */
export interface SessionRatingGiven {
  stars: number;
  comment: string | null;
  givenAt: string;
  editableUntil: string;
}

/** The open times a session may move to, for one of its sides (GET /:bookingId/times). */
export interface MoveTimes {
  /**
   * The zone the times are read in: the tutor's hours' zone for the tutor, the learner's own
   * (their settings) for the learner.
   */
  timeZone: string;
  /** The session's length, which every time has. */
  sessionMinutes: number;
  /** In order, never the session's own time: free for both sides, from the tutor's hours. */
  times: { startsAt: string; endsAt: string }[];
}

export interface TutorWeek {
  timeZone: string;
  /** Sessions from the start of the tutor's today to 7 days on, in order. */
  sessions: BookingView[];
  /**
   * Learners who finished a day's self-study and have neither booked its live session nor held one,
   * longest waiting first.
   */
  waiting: {
    learner: BookingPerson;
    /** The learner's account as staff's user list shows it, to open their progress. */
    account: UserSummary;
    chapterId: string;
    dayId: string;
    dayTitle: string;
    since: string;
    /** The day's live-session tasks (its role-plays) the learner has not completed, in the day's order. */
    left: { taskId: string; title: string }[];
  }[];
}
