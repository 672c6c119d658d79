import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { bookingsAccountPart } from "./bookings.account-part";
import { bookingRoutes } from "./bookings.routes";
import { type BookingsDeps, createBookings } from "./bookings.service";

/** How often each instance looks for session reminders due: the 10-minute one must not come late. */
export const BOOKING_REMINDER_SCAN_MS = 60_000;

/** Tutors' hours, booking a day's live session, its changes, invites and reminders: /api/bookings. */
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
      jobs: [{ name: "session reminders", everyMs: BOOKING_REMINDER_SCAN_MS, run: service.sendReminders }],
    }),
  };
}

export type BookingsModule = ReturnType<typeof bookingsModule>;
