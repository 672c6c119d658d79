import { FREE_CANCEL_HOURS, type NoShowParty } from "#course/bookings";
import type { SessionUser } from "#server/http/context";
import { forbidden } from "#server/http/errors";
import { cancelSession } from "./bookings.account";
import { BOOKING_ERRORS, type BookingView, MESSAGES_PER_BOOKING_MAX } from "./bookings.contract";
import { refuseHeld } from "./bookings.held";
import { type BookingsKit, HOUR, refused, requireConfirmed } from "./bookings.kit";
import { markNoShow } from "./bookings.no-show";
import type { Tell } from "./bookings.told";

/** Cancelling a session before it starts. */
function cancelling(kit: BookingsKit, tell: Tell) {
  const { db, bookings, mailCaps, now, partiesOfBooking, lockedFor, viewOf } = kit;
  return {
    /**
     * Cancels a session before it starts: the learner until FREE_CANCEL_HOURS before (inside that,
     * 409 CANCEL_TOO_LATE: they message the tutor), the tutor or an Admin at any time. A proposal
     * waiting goes with it. Both sides get the invite's CANCEL.
     */
    async cancel(user: SessionUser, bookingId: string, reason?: string): Promise<BookingView> {
      const parties = await partiesOfBooking(bookingId);
      const hold = await mailCaps.beforeMail(user, parties.values());
      const row = await db.transaction(async (tx) => {
        const { row, part } = await lockedFor(tx, user, bookingId);
        requireConfirmed(row);
        await refuseHeld(kit.sessionEnded, row, tx);
        const at = now().getTime();
        if (row.startsAt.getTime() <= at) throw refused(409, "NOT_UPCOMING", BOOKING_ERRORS.NOT_UPCOMING);
        if (part === "learner" && row.startsAt.getTime() - at < FREE_CANCEL_HOURS * HOUR) {
          throw refused(409, "CANCEL_TOO_LATE", BOOKING_ERRORS.CANCEL_TOO_LATE(FREE_CANCEL_HOURS));
        }
        const { row: cancelled, changeId } = await cancelSession(tx, bookings, row, user.id, reason || null);
        await tell(tx, cancelled, { change: "cancelled", actorId: user.id, changeId, hold });
        return cancelled;
      });
      return viewOf(row, user);
    },
  };
}

/** What the two sides note on a session: a no-show, that they met, a message to the other. */
function noting(kit: BookingsKit, tell: Tell) {
  const { db, bookings, mailCaps, now, logger, partiesOfBooking, lockedFor, viewOf } = kit;
  return {
    /**
     * One side marks that the other did not come (an Admin names which), once, when the session did
     * not take place (bookings.no-show.ts).
     */
    async noShow(user: SessionUser, bookingId: string, party?: NoShowParty): Promise<BookingView> {
      const row = await db.transaction(async (tx) => {
        const { row, part } = await lockedFor(tx, user, bookingId);
        requireConfirmed(row);
        const marking = { bookings, sessionEnded: kit.sessionEnded, at: now() };
        return markNoShow(tx, marking, row, { id: user.id, part, party });
      });
      return viewOf(row, user);
    },

    /** The booking's learner and tutor were in its room together (`userIds`, from the room's relay). */
    sessionMet(bookingId: string, userIds: [string, string]): void {
      bookings.markMet(bookingId, userIds).catch((error: unknown) => {
        logger.warn({ err: error, bookingId }, "that a session's two sides met was not kept");
      });
    },

    /** A message to the other side of a session, emailed to them and kept with the booking's changes. */
    async message(user: SessionUser, bookingId: string, text: string): Promise<BookingView> {
      const parties = await partiesOfBooking(bookingId);
      const hold = await mailCaps.beforeMail(user, parties.values());
      const row = await db.transaction(async (tx) => {
        const { row, part } = await lockedFor(tx, user, bookingId);
        if (part === "admin") throw forbidden("Only the session's learner and tutor message each other.");
        if ((await bookings.messageCount(tx, row.inviteUid)) >= MESSAGES_PER_BOOKING_MAX) {
          throw refused(409, "TOO_MANY_MESSAGES", BOOKING_ERRORS.TOO_MANY_MESSAGES(MESSAGES_PER_BOOKING_MAX));
        }
        const changeId = await bookings.addChange(tx, {
          bookingId: row.id,
          kind: "message",
          actorId: user.id,
          reason: text,
        });
        await tell(tx, row, { change: "message", actorId: user.id, changeId, hold });
        return row;
      });
      return viewOf(row, user);
    },
  };
}

/**
 * The changes to a session once booked, each kept with who and why and told to the sides it
 * concerns: cancelling, a no-show, a message (moving it to another time: bookings.move.ts).
 */
export function createChanges(kit: BookingsKit, tell: Tell) {
  return {
    ...cancelling(kit, tell),
    ...noting(kit, tell),
  };
}
