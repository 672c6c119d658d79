import { BOOKING_REMINDERS, type BookingReminderKind } from "#course/bookings";
import { type BookingsKit, HOUR } from "./bookings.kit";
import type { Notices } from "./bookings.notices";

function reminderText(kind: BookingReminderKind, day: string, other: string, when: string) {
  const soon = BOOKING_REMINDERS.find((reminder) => reminder.kind === kind)!.beforeMs < HOUR;
  return soon
    ? {
        subject: `Starting in 10 minutes: ${day} live session`,
        text: `Your live session for ${day} with ${other} starts at ${when}. Join the session room now: the link is below.`,
      }
    : {
        subject: `Tomorrow: ${day} live session, ${when}`,
        text: `A reminder: your live session for ${day} with ${other} is at ${when}.`,
      };
}

/** The reminders before each session. */
export function createReminders(kit: BookingsKit, { tellBoth }: Notices) {
  const { db, bookings, logger, now, dayTitle, partiesOf } = kit;
  return {
    /**
     * The reminders due now (docs/decisions/048-booking-a-tutor.md): 24 h and 10 min before each
     * confirmed session, to both sides, times in each reader's zone. A (booking, kind) row is
     * written with the emails, and only its writer sends them: one of each, however many
     * instances run this at once.
     */
    async sendReminders(): Promise<number> {
      const due = await bookings.dueReminders(now());
      if (due.length === 0) return 0;
      // Everyone the due reminders go to, read once.
      const parties = await partiesOf(due.flatMap(({ booking }) => [booking.learnerId, booking.tutorId]));
      let sent = 0;
      for (const { booking: row, kind } of due) {
        const claimed = await db.transaction(async (tx) => {
          if (!(await bookings.claimReminder(tx, row.id, kind))) return false;
          await tellBoth(tx, row, parties, (_reader, other, when) =>
            reminderText(kind, dayTitle(row), other.name, when(row.startsAt)),
          );
          return true;
        });
        if (claimed) sent += 1;
      }
      if (sent > 0) logger.info({ sent }, "session reminders written to the outbox");
      return sent;
    },
  };
}
