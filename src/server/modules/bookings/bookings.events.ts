import { z } from "zod";

/** The changes to a booking its sides are told of by email (a no-show is not mailed). */
export const TOLD_CHANGES = [
  "booked",
  "cancelled",
  "proposed",
  "requested",
  "declined",
  "accepted",
  "message",
] as const;
export type ToldChange = (typeof TOLD_CHANGES)[number];

const changed = z
  .object({
    /** The booking the mail is about: for "accepted", the booking at its new time. */
    bookingId: z.uuid(),
    /** The calendar invite's SEQUENCE as the change left it: a later change raises the row's, never this mail's. */
    sequence: z.number().int().min(0),
    change: z.enum(TOLD_CHANGES),
    /** Who made the change: a side of the booking, or an Admin. */
    actorId: z.string().min(1),
    /** The change kept with what its maker wrote (a reason, a message), read by the handler. */
    changeId: z.number().int().positive().optional(),
    /** The time asked for ("proposed", "requested", "declined"), or the booking it moved from ("accepted"). */
    otherBookingId: z.uuid().optional(),
    /** Readers whose session mail is held back today, or who get the one notice that it is (bookings.limits.ts). */
    hold: z.record(z.string(), z.enum(["held", "notice"])),
  })
  .strict();

/**
 * The bookings module's events (docs/decisions/075). `bookings.changed`: a booking was made or changed;
 * the module's own handler writes each side's email and calendar invite. Ids, times' sequence and the
 * mail caps' verdicts only: a reason or message is read from the change, and goes with its writer's account.
 */
export const bookingsEvents = {
  changed: { name: "bookings.changed", payload: changed },
};

export type BookingChanged = z.infer<typeof changed>;
