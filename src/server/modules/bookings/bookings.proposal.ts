import type { Availability } from "#course/bookings";
import { HttpError } from "#server/http/errors";
import { BOOKING_ERRORS } from "./bookings.contract";
import { bookableWindow, openSlotsOf, type Span } from "./slots";

const refused = (code: keyof typeof BOOKING_ERRORS, message: string) => new HttpError(422, code, message);

/**
 * Refuses a new time for a session that its learner could not book from the tutor's hours
 * (docs/decisions/063-limits-and-no-shows.md): a time past, one beyond the tutor's horizon, or one
 * that is not the start of a session of their hours (`grid`, slotGrid's around `at`). The notice is
 * the tutor's to waive: they propose the time themself. Whether the time is free is PostgreSQL's to
 * say, as for a booking: its exclusion constraints exempt the rows of the session's own event.
 */
export function assertProposable(
  startsAt: Date,
  hours: Availability | undefined,
  at: Date,
  grid: (availability: Availability, at: Date) => readonly Span[],
): void {
  const start = startsAt.getTime();
  if (start <= at.getTime()) throw refused("SLOT_PAST", BOOKING_ERRORS.SLOT_PAST);
  if (!hours) throw refused("PROPOSAL_OUTSIDE_HOURS", BOOKING_ERRORS.PROPOSAL_OUTSIDE_HOURS);
  if (start > bookableWindow(hours, at).latest) {
    throw refused("PROPOSAL_TOO_FAR", BOOKING_ERRORS.PROPOSAL_TOO_FAR(hours.horizonDays));
  }
  if (!grid(hours, at).some((slot) => slot.startsAt.getTime() === start)) {
    throw refused("PROPOSAL_OUTSIDE_HOURS", BOOKING_ERRORS.PROPOSAL_OUTSIDE_HOURS);
  }
}

/**
 * Refuses a new time the learner asks for that is not one of the tutor's open times (`hours` cut to
 * the session's length): past, inside the notice, beyond the horizon or off their hours. Whether
 * it is free is PostgreSQL's to say, as for a booking.
 */
export function assertRequestable(
  startsAt: Date,
  hours: Availability | undefined,
  at: Date,
  grid: (availability: Availability, at: Date) => readonly Span[],
): void {
  const start = startsAt.getTime();
  if (start <= at.getTime()) throw refused("SLOT_PAST", BOOKING_ERRORS.SLOT_PAST);
  const open = hours ? openSlotsOf(grid(hours, at), hours, at, []) : [];
  if (!open.some((slot) => slot.startsAt.getTime() === start)) {
    throw refused("REQUEST_NOT_OPEN", BOOKING_ERRORS.REQUEST_NOT_OPEN);
  }
}
