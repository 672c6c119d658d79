import { NO_SHOW_GRACE_MINUTES, type NoShowParty } from "#course/bookings";
import type { Queryable, Transaction } from "#server/db/client";
import { badRequest, HttpError } from "#server/http/errors";
import { BOOKING_ERRORS } from "./bookings.contract";
import type { BookingRow, BookingsRepository } from "./bookings.repository";

/** Whether the session's tutor has ended it with its record (the calls module's call_record). */
export type SessionEnded = (bookingId: string, q: Queryable) => Promise<boolean>;

const refused = (code: keyof typeof BOOKING_ERRORS, message: string) => new HttpError(409, code, message);

/**
 * Marks that the other side of a confirmed session did not come (an Admin names which), in the
 * caller's transaction with the booking locked (docs/decisions/063-limits-and-no-shows.md). Only
 * for a session that did not take place: not before NO_SHOW_GRACE_MINUTES past its start, not once
 * its tutor ended it, not once its learner and tutor were in the room together (`met_at`), and
 * once. Who marked it and when are kept with the booking and in its changes.
 */
export async function markNoShow(
  tx: Transaction,
  deps: { bookings: BookingsRepository; sessionEnded: SessionEnded; at: Date },
  row: BookingRow,
  marker: { id: string; part: "learner" | "tutor" | "admin"; party?: NoShowParty },
): Promise<BookingRow> {
  // A session held says so first, whenever it is asked: nothing about it is a no-show (decision 083).
  if (await deps.sessionEnded(row.id, tx)) throw refused("SESSION_ENDED", BOOKING_ERRORS.SESSION_ENDED);
  if (row.startsAt.getTime() + NO_SHOW_GRACE_MINUTES * 60_000 > deps.at.getTime()) {
    throw refused("NOT_STARTED", BOOKING_ERRORS.NOT_STARTED(NO_SHOW_GRACE_MINUTES));
  }
  if (row.noShow) throw refused("NO_SHOW_MARKED", BOOKING_ERRORS.NO_SHOW_MARKED);
  if (row.metAt) throw refused("SESSION_MET", BOOKING_ERRORS.SESSION_MET);
  const { part, party } = marker;
  const absent: NoShowParty | undefined = part === "learner" ? "tutor" : part === "tutor" ? "learner" : party;
  if (!absent) throw badRequest("Say which side did not come: party learner or tutor.");
  const marked = await deps.bookings.update(tx, row.id, { noShow: absent, noShowBy: marker.id, noShowAt: deps.at });
  await deps.bookings.addChange(tx, {
    bookingId: row.id,
    kind: "no-show",
    actorId: marker.id,
    reason: absent === "learner" ? "The learner did not come." : "The tutor did not come.",
  });
  return marked;
}
