import type { Availability } from "#course/bookings";
import type { Transaction } from "#server/db/client";
import { roomAccessChanged } from "#server/db/room-access";
import type { SessionUser } from "#server/http/context";
import { forbidden } from "#server/http/errors";
import { BOOKING_ERRORS, type BookingView, type MoveTimes } from "./bookings.contract";
import { refuseHeld } from "./bookings.held";
import { availabilityOf, type BookingsKit, DAY, partOf, refused, requireConfirmed } from "./bookings.kit";
import { assertProposable, assertRequestable } from "./bookings.proposal";
import { timeTaken } from "./bookings.races";
import type { BookingRow, TutorHoursRow } from "./bookings.repository";
import type { Tell } from "./bookings.told";
import { openSlotsOf } from "./slots";

/** The side of a session a viewer acts for: an Admin acts for the tutor, as a proposal's maker. */
type Side = "learner" | "tutor";
const sideOf = (part: BookingView["youAre"]): Side => (part === "learner" ? "learner" : "tutor");
const MINUTE = 60_000;

/**
 * The tutor's hours as a session moves within them (docs/decisions/084-changing-a-time.md): cut into
 * sessions of the booking's own length (the tutor may have changed theirs since), and the notice the
 * learner's to keep only: a tutor waives their own.
 */
function hoursForMove(hours: TutorHoursRow, row: BookingRow, side: Side): Availability {
  const availability = availabilityOf(hours);
  return {
    ...availability,
    sessionMinutes: Math.round((row.endsAt.getTime() - row.startsAt.getTime()) / MINUTE),
    noticeHours: side === "learner" ? availability.noticeHours : 0,
  };
}

const upcoming = (row: BookingRow, at: Date) => {
  requireConfirmed(row);
  if (row.startsAt.getTime() <= at.getTime()) throw refused(409, "NOT_UPCOMING", BOOKING_ERRORS.NOT_UPCOMING);
};

/** What PostgreSQL's refusal of a taken time says to the side that asked for it. */
const TAKEN: Record<Side, { tutor: string; learner: string }> = {
  tutor: {
    tutor: "You have another session at that time. Propose another.",
    learner: "The learner has another session at that time. Propose another.",
  },
  learner: {
    tutor: "Your tutor has another session at that time. Pick another.",
    learner: "You have another session at that time. Pick another.",
  },
};

/**
 * Moving a session to another time, as people do (docs/decisions/084-changing-a-time.md): either
 * side asks for one of the tutor's open times, the other accepts or declines. A session has one
 * time asked for at once, a booking "proposed" that holds it; the change that asked says who
 * ("proposed" by the tutor or an Admin, "requested" by the learner).
 */
export function createMoves(kit: BookingsKit, tell: Tell) {
  return { ...listing(kit), ...asking(kit, tell), ...answering(kit, tell) };
}

/** The open times a session may move to, as the server lists them for either side. */
function listing(kit: BookingsKit) {
  const { bookings, now, gridFor, readBooking, readingZonesOf } = kit;

  /** The open times `side` may ask for: free for both sides (the session's own event aside), never its own time. */
  async function openTimes(row: BookingRow, side: Side, hours: TutorHoursRow) {
    if (!row.learnerId || !row.tutorId) return [];
    const availability = hoursForMove(hours, row, side);
    const at = now();
    const until = new Date(at.getTime() + (availability.horizonDays + 1) * DAY);
    const busy = (await bookings.busyOf([row.tutorId], row.learnerId, at, until)).filter(
      (taken) => taken.inviteUid !== row.inviteUid,
    );
    return openSlotsOf(gridFor(availability, at), availability, at, busy).filter(
      (slot) => slot.startsAt.getTime() !== row.startsAt.getTime(),
    );
  }

  return {
    /**
     * The open times a session may move to, for its learner (their notice kept, in their own zone)
     * or its tutor (in their hours' zone): 403 for an Admin, who is neither.
     */
    async moveTimes(user: SessionUser, bookingId: string): Promise<MoveTimes> {
      const row = await readBooking(user, bookingId);
      const part = partOf(row, user);
      if (part === "admin") throw forbidden("Only the session's learner and tutor choose another time for it.");
      upcoming(row, now());
      const hours = row.tutorId ? await bookings.hoursOf(row.tutorId) : undefined;
      const zone = part === "tutor" && hours ? hours.timeZone : (await readingZonesOf([user.id])).get(user.id)!;
      const times = hours ? await openTimes(row, part, hours) : [];
      return {
        timeZone: zone,
        sessionMinutes: Math.round((row.endsAt.getTime() - row.startsAt.getTime()) / MINUTE),
        times: times.map((slot) => ({ startsAt: slot.startsAt.toISOString(), endsAt: slot.endsAt.toISOString() })),
      };
    },
  };
}

/** Either side asking for another time. */
function asking(kit: BookingsKit, tell: Tell) {
  const { db, bookings, mailCaps, now, gridFor, partiesOfBooking, lockedFor, viewOf } = kit;

  /** Writes the time asked for, in place of one waiting (from either side), and its change. */
  async function ask(tx: Transaction, row: BookingRow, asker: { id: string; side: Side }, input: ProposeInput) {
    const waiting = await bookings.proposalFor(row.id, tx);
    if (waiting) await bookings.update(tx, waiting.id, { status: "cancelled" });
    const proposal = await bookings.insert(tx, {
      inviteUid: row.inviteUid,
      sequence: row.sequence,
      tutorId: row.tutorId,
      learnerId: row.learnerId,
      chapterId: row.chapterId,
      dayId: row.dayId,
      startsAt: input.startsAt,
      endsAt: new Date(input.startsAt.getTime() + row.endsAt.getTime() - row.startsAt.getTime()),
      status: "proposed",
      replacesId: row.id,
    });
    const kind = asker.side === "learner" ? "requested" : "proposed";
    const changeId = await bookings.addChange(tx, {
      bookingId: row.id,
      kind,
      actorId: asker.id,
      reason: input.reason || null,
    });
    return { proposal, kind, changeId } as const;
  }

  return {
    /**
     * Either side asks for another time for a session that has not started: the learner one of the
     * tutor's open times (as they could book it), the tutor (or an Admin) a session of their hours,
     * their notice waived. The time is held until the other side answers; a time already asked for,
     * by either side, is replaced.
     */
    async propose(user: SessionUser, bookingId: string, input: ProposeInput): Promise<BookingView> {
      const parties = await partiesOfBooking(bookingId);
      const hold = await mailCaps.beforeMail(user, parties.values());
      let side: Side = "tutor";
      try {
        const row = await db.transaction(async (tx) => {
          const { row, part } = await lockedFor(tx, user, bookingId);
          side = sideOf(part);
          const at = now();
          upcoming(row, at);
          await refuseHeld(kit.sessionEnded, row, tx);
          // A confirmed booking's tutor is there: deleting an account cancels its bookings first.
          const hours = row.tutorId ? await bookings.hoursOf(row.tutorId, tx) : undefined;
          const availability = hours && hoursForMove(hours, row, side);
          if (side === "learner") assertRequestable(input.startsAt, availability, at, gridFor);
          else assertProposable(input.startsAt, availability, at, gridFor);
          if (input.startsAt.getTime() === row.startsAt.getTime()) {
            throw refused(422, "PROPOSAL_SAME_TIME", BOOKING_ERRORS.PROPOSAL_SAME_TIME);
          }
          const { proposal, kind, changeId } = await ask(tx, row, { id: user.id, side }, input);
          await tell(tx, row, { change: kind, actorId: user.id, changeId, otherBookingId: proposal.id, hold });
          return row;
        });
        return viewOf(row, user);
      } catch (error) {
        timeTaken(error, TAKEN[side]);
      }
    },
  };
}

/** The other side's answer to the time asked for. */
function answering(kit: BookingsKit, tell: Tell) {
  const { db, bookings, mailCaps, now, partiesOfBooking, lockedFor, viewOf } = kit;
  return {
    /**
     * The other side's answer to the time asked for (the learner's to a proposal, the tutor's or an
     * Admin's to a request): accepted, the session moves there (the invite is updated, its SEQUENCE
     * raised, for both sides); declined, it stays where it was.
     */
    async answer(user: SessionUser, bookingId: string, accept: boolean): Promise<BookingView> {
      const parties = await partiesOfBooking(bookingId);
      const hold = await mailCaps.beforeMail(user, parties.values());
      const row = await db.transaction(async (tx) => {
        const { row, part } = await lockedFor(tx, user, bookingId);
        requireConfirmed(row);
        await refuseHeld(kit.sessionEnded, row, tx);
        const proposal = await bookings.proposalFor(row.id, tx);
        if (!proposal) throw refused(409, "NO_PROPOSAL", BOOKING_ERRORS.NO_PROPOSAL);
        if ((await bookings.askerOf(row.id, tx)) === sideOf(part)) {
          throw forbidden(BOOKING_ERRORS.ANSWERED_BY_OTHER(part === "learner" ? "your tutor" : "the learner"));
        }
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

interface ProposeInput {
  startsAt: Date;
  reason?: string;
}
