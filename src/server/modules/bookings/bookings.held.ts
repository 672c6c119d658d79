import type { Queryable } from "#server/db/client";
import { HttpError } from "#server/http/errors";
import { BOOKING_ERRORS, type BookingView, type HeldSession } from "./bookings.contract";
import type { SessionEnded } from "./bookings.no-show";
import type { BookingRow } from "./bookings.repository";

/**
 * What the calls module, which keeps a session's record, tells bookings of the sessions held
 * (docs/decisions/083-a-session-held.md), besides whether one was ended (SessionEnded): given to
 * bookings by the registry, since calls stands above it.
 */
export interface HeldSessions {
  /** The sessions held among these, by id, each as its viewer's side reads it. */
  of: (sessions: readonly { id: string; youAre: BookingView["youAre"] }[]) => Promise<Map<string, HeldSession>>;
  /** The days these learners have held a session for (their learner, chapter and day). */
  daysHeldBy: (learnerIds: readonly string[]) => Promise<{ learnerId: string; chapterId: string; dayId: string }[]>;
  /** How many sessions each of these tutors has held. */
  countsOf: (tutorIds: readonly string[]) => Promise<Map<string, number>>;
}

/**
 * 409 SESSION_HELD when the session's tutor has ended it: a session held is the day's record, and
 * is no longer cancelled or moved. In the change's transaction, the booking locked.
 */
export async function refuseHeld(sessionEnded: SessionEnded, row: BookingRow, q: Queryable): Promise<void> {
  if (await sessionEnded(row.id, q)) throw new HttpError(409, "SESSION_HELD", BOOKING_ERRORS.SESSION_HELD);
}
