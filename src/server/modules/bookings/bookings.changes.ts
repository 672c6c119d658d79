import { FREE_CANCEL_HOURS, type NoShowParty } from "#course/bookings";
import { roomAccessChanged } from "#server/db/room-access";
import type { SessionUser } from "#server/http/context";
import { forbidden } from "#server/http/errors";
import { cancelSession } from "./bookings.account";
import { BOOKING_ERRORS, type BookingView, MESSAGES_PER_BOOKING_MAX } from "./bookings.contract";
import { refuseHeld } from "./bookings.held";
import { availabilityOf, type BookingsKit, HOUR, refused, requireConfirmed } from "./bookings.kit";
import { markNoShow } from "./bookings.no-show";
import { assertProposable } from "./bookings.proposal";
import { timeTaken } from "./bookings.races";
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

/** The tutor's proposal of another time for a session. */
function proposing(kit: BookingsKit, tell: Tell) {
  const { db, bookings, mailCaps, now, gridFor, partiesOfBooking, lockedFor, viewOf } = kit;
  return {
    /**
     * The tutor (or an Admin) proposes another time for a session that has not started: the time
     * is held for the learner (a booking "proposed"), who accepts or declines; a proposal already
     * waiting is replaced. Any time free for both sides, inside the tutor's hours or not.
     */
    async propose(
      user: SessionUser,
      bookingId: string,
      input: { startsAt: Date; reason?: string },
    ): Promise<BookingView> {
      const parties = await partiesOfBooking(bookingId);
      const hold = await mailCaps.beforeMail(user, parties.values());
      try {
        const row = await db.transaction(async (tx) => {
          const { row, part } = await lockedFor(tx, user, bookingId);
          if (part === "learner")
            throw forbidden("Only the tutor can propose a new time. Send them a message instead.");
          requireConfirmed(row);
          await refuseHeld(kit.sessionEnded, row, tx);
          const at = now().getTime();
          if (row.startsAt.getTime() <= at) throw refused(409, "NOT_UPCOMING", BOOKING_ERRORS.NOT_UPCOMING);
          // A confirmed booking's tutor is there: deleting an account cancels its bookings first.
          const hours = row.tutorId ? await bookings.hoursOf(row.tutorId, tx) : undefined;
          assertProposable(input.startsAt, hours && availabilityOf(hours), now(), gridFor);
          if (input.startsAt.getTime() === row.startsAt.getTime()) {
            throw refused(422, "PROPOSAL_SAME_TIME", BOOKING_ERRORS.PROPOSAL_SAME_TIME);
          }
          const waiting = await bookings.proposalFor(row.id, tx);
          if (waiting) await bookings.update(tx, waiting.id, { status: "cancelled" });
          const length = row.endsAt.getTime() - row.startsAt.getTime();
          const proposal = await bookings.insert(tx, {
            inviteUid: row.inviteUid,
            sequence: row.sequence,
            tutorId: row.tutorId,
            learnerId: row.learnerId,
            chapterId: row.chapterId,
            dayId: row.dayId,
            startsAt: input.startsAt,
            endsAt: new Date(input.startsAt.getTime() + length),
            status: "proposed",
            replacesId: row.id,
          });
          const changeId = await bookings.addChange(tx, {
            bookingId: row.id,
            kind: "proposed",
            actorId: user.id,
            reason: input.reason || null,
          });
          await tell(tx, row, { change: "proposed", actorId: user.id, changeId, otherBookingId: proposal.id, hold });
          return row;
        });
        return viewOf(row, user);
      } catch (error) {
        timeTaken(error, {
          tutor: "You have another session at that time. Propose another.",
          learner: "The learner has another session at that time. Propose another.",
        });
      }
    },
  };
}

/** The learner's answer to a proposed time. */
function answering(kit: BookingsKit, tell: Tell) {
  const { db, bookings, mailCaps, now, partiesOfBooking, lockedFor, viewOf } = kit;
  return {
    /**
     * The learner's answer to a proposed time: accepted, the session moves there (the invite is
     * updated, its SEQUENCE raised, for both sides); declined, it stays where it was.
     */
    async answer(user: SessionUser, bookingId: string, accept: boolean): Promise<BookingView> {
      const parties = await partiesOfBooking(bookingId);
      const hold = await mailCaps.beforeMail(user, parties.values());
      const row = await db.transaction(async (tx) => {
        const { row, part } = await lockedFor(tx, user, bookingId);
        if (part !== "learner") throw forbidden("Only the learner answers a proposed time.");
        requireConfirmed(row);
        await refuseHeld(kit.sessionEnded, row, tx);
        const proposal = await bookings.proposalFor(row.id, tx);
        if (!proposal) throw refused(409, "NO_PROPOSAL", BOOKING_ERRORS.NO_PROPOSAL);
        if (!accept) {
          await bookings.update(tx, proposal.id, { status: "declined" });
          await bookings.addChange(tx, { bookingId: row.id, kind: "declined", actorId: user.id });
          await tell(tx, row, { change: "declined", actorId: user.id, otherBookingId: proposal.id, hold });
          return row;
        }
        if (proposal.startsAt.getTime() <= now().getTime()) {
          throw refused(409, "PROPOSAL_PASSED", BOOKING_ERRORS.PROPOSAL_PASSED);
        }
        await bookings.update(tx, row.id, { status: "moved" });
        await roomAccessChanged(tx, { bookingId: row.id });
        const moved = await bookings.update(tx, proposal.id, {
          status: "confirmed",
          sequence: row.sequence + 1,
          confirmedAt: now(),
        });
        await bookings.addChange(tx, { bookingId: moved.id, kind: "accepted", actorId: user.id });
        await tell(tx, moved, { change: "accepted", actorId: user.id, otherBookingId: row.id, hold });
        return moved;
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
 * concerns: cancelling, moving it by a proposal and its answer, a no-show, a message.
 */
export function createChanges(kit: BookingsKit, tell: Tell) {
  return {
    ...cancelling(kit, tell),
    ...proposing(kit, tell),
    ...answering(kit, tell),
    ...noting(kit, tell),
  };
}
