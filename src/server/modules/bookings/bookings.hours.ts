import { DEFAULT_HORIZON_DAYS, DEFAULT_NOTICE_HOURS, DEFAULT_SESSION_MINUTES } from "#course/bookings";
import type { DayRef } from "#course/progress-rules";
import type { SessionUser } from "#server/http/context";
import { notFound } from "#server/http/errors";
import {
  BOOKING_ERRORS,
  type DaySlots,
  type TutorCard,
  type TutorHours,
  type tutorHoursSchema,
} from "./bookings.contract";
import { availabilityOf, type BookingsKit, DAY, refused } from "./bookings.kit";
import type { TutorHoursRow } from "./bookings.repository";
import { openSlotsOf } from "./slots";

/** The hours a tutor who never saved theirs is shown: the defaults, in their settings' zone. */
function unsavedHours(timeZone: string, photo: string | null): TutorHours {
  return {
    saved: false,
    profile: { bio: "", languages: [], photo },
    availability: {
      timeZone,
      sessionMinutes: DEFAULT_SESSION_MINUTES,
      noticeHours: DEFAULT_NOTICE_HOURS,
      horizonDays: DEFAULT_HORIZON_DAYS,
      weekly: [],
      exceptions: [],
    },
  };
}

/** Each tutor's open slots for this learner: a tutor's own sessions and the learner's are taken. */
function openSlotsByTutor(
  tutors: { card: TutorCard; row: TutorHoursRow }[],
  busy: Awaited<ReturnType<BookingsKit["bookings"]["busyOf"]>>,
  learnerId: string,
  at: Date,
  gridFor: BookingsKit["gridFor"],
) {
  const own = busy.filter((taken) => taken.learnerId === learnerId);
  return tutors.map(({ card, row }) => {
    const availability = availabilityOf(row);
    const taken = [...busy.filter((each) => each.tutorId === card.id), ...own];
    return { card, slots: openSlotsOf(gridFor(availability, at), availability, at, taken) };
  });
}

/** Each open start among the tutors once, with the first of them (by name) free then, in order. */
function firstFree(open: ReturnType<typeof openSlotsByTutor>): DaySlots["slots"] {
  const slots = new Map<number, { startsAt: string; endsAt: string; tutorId: string }>();
  for (const { card, slots: own } of open) {
    for (const slot of own) {
      const key = slot.startsAt.getTime();
      if (slots.has(key)) continue;
      slots.set(key, { startsAt: slot.startsAt.toISOString(), endsAt: slot.endsAt.toISOString(), tutorId: card.id });
    }
  }
  return [...slots.entries()].sort(([a], [b]) => a - b).map(([, slot]) => slot);
}

/** Tutors' hours and profiles, and the open slots learners choose a session from. */
export function createHours(kit: BookingsKit) {
  const { bookings, users, now, dayOf, publishedTutors, readingZonesOf, gridFor } = kit;

  /** The signed-in tutor's hours and profile; the defaults (in their settings' zone) until they save. */
  async function hours(tutor: SessionUser): Promise<TutorHours> {
    const [row, people] = await Promise.all([bookings.hoursOf(tutor.id), users.people([tutor.id])]);
    const shown = people.get(tutor.id);
    if (!shown) throw notFound("This account no longer exists.");
    const photo = shown.avatar?.large ?? null;
    if (!row) return unsavedHours(shown.timeZone, photo);
    return {
      saved: true,
      profile: { bio: row.bio, languages: row.languages, photo },
      availability: availabilityOf(row),
    };
  }

  return {
    hours,

    /**
     * Saves the tutor's hours and profile whole. Past date exceptions are dropped. Bookings already
     * made stand: changed hours apply to the slots offered from now on.
     */
    async saveHours(tutor: SessionUser, input: ReturnType<typeof tutorHoursSchema.parse>): Promise<TutorHours> {
      const today = new Date(now().getTime() - DAY).toISOString().slice(0, 10);
      await bookings.saveHours({
        userId: tutor.id,
        timeZone: input.timeZone,
        bio: input.bio,
        languages: input.languages,
        sessionMinutes: input.sessionMinutes,
        noticeHours: input.noticeHours,
        horizonDays: input.horizonDays,
        weekly: input.weekly.filter((day) => day.ranges.length > 0).sort((a, b) => a.weekday - b.weekday),
        exceptions: input.exceptions
          .filter((exception) => exception.date >= today)
          .sort((a, b) => (a.date < b.date ? -1 : 1)),
      });
      return hours(tutor);
    },

    /** Every member of staff who takes bookings, by name. */
    async tutors(): Promise<TutorCard[]> {
      return (await publishedTutors()).map(({ card }) => card);
    },

    /**
     * The open slots for a day's live session, of one tutor or of every tutor ("first available":
     * each start once, with the first tutor by name free then), and the zone the learner reads
     * them in. Times the learner has a session of their own are left out too.
     */
    async daySlots(user: SessionUser, target: DayRef, tutorId?: string): Promise<DaySlots> {
      dayOf(target);
      const at = now();
      const published = (await publishedTutors()).filter(({ card }) => card.id !== user.id);
      if (tutorId !== undefined && !published.some(({ card }) => card.id === tutorId)) {
        throw refused(422, "NOT_A_TUTOR", BOOKING_ERRORS.NOT_A_TUTOR);
      }
      // Every tutor's slots are worked out, the chosen one's or not: each card says when its tutor is next free.
      const horizon = Math.max(0, ...published.map(({ row }) => row.horizonDays)) + 1;
      const [zones, busy] = await Promise.all([
        readingZonesOf([user.id]),
        bookings.busyOf(
          published.map(({ card }) => card.id),
          user.id,
          at,
          new Date(at.getTime() + horizon * DAY),
        ),
      ]);
      const open = openSlotsByTutor(published, busy, user.id, at, gridFor);
      return {
        timeZone: zones.get(user.id)!,
        tutorId: tutorId ?? null,
        tutors: open.map(({ card, slots }) => ({ ...card, nextAvailable: slots[0]?.startsAt.toISOString() ?? null })),
        slots: firstFree(tutorId === undefined ? open : open.filter(({ card }) => card.id === tutorId)),
      };
    },
  };
}
