import { accountClosing } from "./bookings.account";
import { createBook } from "./bookings.book";
import { createChanges } from "./bookings.changes";
import type { TutorHoursInput } from "./bookings.contract";
import { createHours } from "./bookings.hours";
import { type BookingsDeps, createKit } from "./bookings.kit";
import { createMoves } from "./bookings.move";
import { createNotices } from "./bookings.notices";
import { createReminders } from "./bookings.reminders";
import { changeTeller, createTelling } from "./bookings.told";
import { createViews } from "./bookings.views";

/**
 * Booking a day's live session with a tutor (docs/decisions/048-booking-a-tutor.md): tutors' hours,
 * open slots computed here from the tutor's zone and rules, bookings whose overlaps PostgreSQL
 * refuses, every change kept with who and why, invites with a stable UID and a rising SEQUENCE, and
 * the reminders 24 h and 10 min before, each sent once however many instances run.
 *
 * Each use case has its file: hours and slots (bookings.hours.ts), booking (bookings.book.ts), the
 * changes after (bookings.changes.ts), moving it to another time (bookings.move.ts), what the sides see (bookings.views.ts) and the reminders
 * (bookings.reminders.ts), over what they share (bookings.kit.ts) and the mail they send
 * (bookings.notices.ts): a change's mail is written by the handler of the event it records
 * (bookings.told.ts); the reminders and an account's closing write theirs themselves.
 */
export function createBookings(deps: BookingsDeps) {
  const kit = createKit(deps);
  const notices = createNotices(kit);
  const tell = changeTeller(deps.events);
  return {
    ...createHours(kit),
    ...createBook(kit, tell),
    ...createViews(kit, notices),
    ...createChanges(kit, tell),
    ...createMoves(kit, tell),
    ...createReminders(kit, notices),
    ...createTelling(kit, notices),

    /** The user's part of Export My Data. */
    exportFor: (userId: string) => kit.bookings.exportFor(userId),
    /** The user's part of their account's deletion: their upcoming sessions cancelled (bookings.account.ts). */
    ...accountClosing({ ...kit, tellBoth: notices.tellBoth }),
  };
}

export type BookingsService = ReturnType<typeof createBookings>;
export type { BookingsDeps } from "./bookings.kit";
export type { Party } from "./bookings.parties";
export type { CalendarSession } from "./bookings.views";
export type { TutorHoursInput };
