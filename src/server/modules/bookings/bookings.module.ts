import { on } from "#server/events/events";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { bookingsAccountPart } from "./bookings.account-part";
import { bookingsEvents } from "./bookings.events";
import { bookingRoutes } from "./bookings.routes";
import { type BookingsDeps, createBookings } from "./bookings.service";

/** How often each instance looks for session reminders due: the 10-minute one must not come late. */
export const BOOKING_REMINDER_SCAN_MS = 60_000;

/**
 * Tutors' hours, booking a day's live session, its changes, invites and reminders: /api/bookings. Each
 * change records `bookings.changed`, whose handler here writes the sides' emails and invites.
 */
export function bookingsModule(deps: BookingsDeps) {
  const service = createBookings(deps);
  return {
    service,
    ...defineModule({
      name: "bookings",
      path: "/bookings",
      bodyLimit: JSON_BODY_LIMIT,
      routes: bookingRoutes(service, deps.limiter),
      account: bookingsAccountPart(service),
      emits: [bookingsEvents.changed],
      handles: [on(bookingsEvents.changed, service.tellChange)],
      jobs: [{ name: "session reminders", everyMs: BOOKING_REMINDER_SCAN_MS, run: service.sendReminders }],
    }),
  };
}

export type BookingsModule = ReturnType<typeof bookingsModule>;
export type { CalendarSession } from "./bookings.service";
