import { randomUUID } from "node:crypto";
import { type Availability, UPCOMING_BOOKINGS_MAX } from "#course/bookings";
import { pageTasks } from "#course/course";
import type { DayRef } from "#course/progress-rules";
import type { SessionUser } from "#server/http/context";
import { BOOKING_ERRORS, type BookingView } from "./bookings.contract";
import { availabilityOf, type BookingsKit, DAY, HOUR, refused } from "./bookings.kit";
import { retryingDeadlocks, timeTaken } from "./bookings.races";
import type { Tell } from "./bookings.told";
import { openSlotsOf, type Span } from "./slots";

/**
 * The tutor's open slot starting at `startsAt`, or why it cannot be booked: past, inside the
 * tutor's notice, beyond their horizon or off their hours (422).
 */
function openSlotAt(
  startsAt: Date,
  tutorName: string,
  availability: Availability,
  at: Date,
  gridFor: BookingsKit["gridFor"],
): Span {
  const start = startsAt.getTime();
  if (start <= at.getTime()) throw refused(422, "SLOT_PAST", BOOKING_ERRORS.SLOT_PAST);
  if (start < at.getTime() + availability.noticeHours * HOUR) {
    throw refused(422, "SLOT_INSIDE_NOTICE", BOOKING_ERRORS.SLOT_INSIDE_NOTICE(tutorName, availability.noticeHours));
  }
  if (start > at.getTime() + availability.horizonDays * DAY) {
    throw refused(422, "SLOT_TOO_FAR", BOOKING_ERRORS.SLOT_TOO_FAR(tutorName, availability.horizonDays));
  }
  const slot = openSlotsOf(gridFor(availability, at), availability, at, []).find(
    (open) => open.startsAt.getTime() === start,
  );
  if (!slot) throw refused(422, "SLOT_OUTSIDE_HOURS", BOOKING_ERRORS.SLOT_OUTSIDE_HOURS);
  return slot;
}

/** Booking a tutor's open slot for a day's live session. */
export function createBook(kit: BookingsKit, tell: Tell) {
  const { db, bookings, progress, mailCaps, now, dayOf, tutorHoursOf, viewOfNew, gridFor } = kit;

  return {
    /**
     * Books one of the tutor's open slots for the day's live session. Refused, changing nothing:
     * a locked day (409 DAY_LOCKED), a day without a live session, a time past, inside the notice,
     * beyond the horizon or off the tutor's hours (422), a time taken (409 SLOT_TAKEN: PostgreSQL's
     * exclusion constraint decides between two instances), a second upcoming session for the day
     * or more than UPCOMING_BOOKINGS_MAX in all (409). Both sides get the invite (bookings.told.ts).
     */
    async book(user: SessionUser, target: DayRef, input: { tutorId: string; startsAt: Date }): Promise<BookingView> {
      const { day } = dayOf(target);
      if (pageTasks(day, "liveSession").length === 0)
        throw refused(422, "NO_LIVE_SESSION", BOOKING_ERRORS.NO_LIVE_SESSION);
      if (input.tutorId === user.id) throw refused(422, "OWN_SESSION", BOOKING_ERRORS.OWN_SESSION);
      await progress.assertDayOpen(user, target);
      const { row: hours, party: tutor, parties } = await tutorHoursOf(input.tutorId, [user.id]);
      const at = now();
      const slot = openSlotAt(input.startsAt, tutor.name, availabilityOf(hours), at, gridFor);
      const hold = await mailCaps.beforeMail(user, parties.values());
      try {
        const { booked, bookedAt } = await retryingDeadlocks(() =>
          db.transaction(async (tx) => {
            await bookings.lockLearner(tx, user.id);
            const upcoming = await bookings.upcomingOf(user.id, at, tx);
            if (upcoming.some((other) => other.chapterId === target.chapterId && other.dayId === target.dayId)) {
              throw refused(409, "DAY_ALREADY_BOOKED", BOOKING_ERRORS.DAY_ALREADY_BOOKED);
            }
            if (upcoming.length >= UPCOMING_BOOKINGS_MAX) {
              throw refused(409, "TOO_MANY_BOOKINGS", BOOKING_ERRORS.TOO_MANY_BOOKINGS(UPCOMING_BOOKINGS_MAX));
            }
            const { row: booked, at: bookedAt } = await bookings.insertWithChange(
              tx,
              {
                inviteUid: randomUUID(),
                tutorId: tutor.id,
                learnerId: user.id,
                chapterId: target.chapterId,
                dayId: target.dayId,
                startsAt: slot.startsAt,
                endsAt: slot.endsAt,
                status: "confirmed",
                confirmedAt: at,
              },
              { kind: "booked", actorId: user.id },
            );
            await tell(tx, booked, { change: "booked", actorId: user.id, hold });
            return { booked, bookedAt };
          }),
        );
        const change = { inviteUid: booked.inviteUid, kind: "booked" as const, actorId: user.id, reason: null };
        return viewOfNew(booked, user, { ...change, at: bookedAt }, parties);
      } catch (error) {
        timeTaken(error, { tutor: BOOKING_ERRORS.SLOT_TAKEN, learner: BOOKING_ERRORS.LEARNER_BUSY });
      }
    },
  };
}
