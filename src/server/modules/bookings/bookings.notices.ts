import type { Transaction } from "#server/db/client";
import type { MailMessage } from "#server/mail/mailer";
import type { BookingsKit } from "./bookings.kit";
import { HELD_BACK_NOTICE, type MailHold } from "./bookings.limits";
import type { Party } from "./bookings.parties";
import type { BookingRow } from "./bookings.repository";
import { calendarInvite } from "./invite";
import { timeIn } from "./slots";

/** The UID of every invite of a booking, and of its event in its sides' calendar feeds. */
export const inviteUidOf = (row: Pick<BookingRow, "inviteUid">) => `${row.inviteUid}@jalan`;

/** The mail and calendar invites a booking's changes send its two sides. */
export function createNotices(kit: Pick<BookingsKit, "mailer" | "organizer" | "now" | "dayTitle" | "sessionUrl">) {
  const { mailer, organizer, now, dayTitle, sessionUrl } = kit;

  /** The booking's calendar event as it stands, both sides its attendees (a side whose account is gone left out). */
  const inviteOf = (row: BookingRow, learner: Party, tutor: Party, method: "REQUEST" | "CANCEL") =>
    calendarInvite({
      uid: inviteUidOf(row),
      sequence: row.sequence,
      method,
      startsAt: row.startsAt,
      endsAt: row.endsAt,
      title: `Jalan: ${dayTitle(row)} live session`,
      description: `${tutor.name} (tutor) and ${learner.name} (learner). Open the session: ${sessionUrl(row)}`,
      url: sessionUrl(row),
      organizer,
      attendees: [tutor, learner].filter((party) => party.email).map(({ name, email }) => ({ name, email })),
      now: now(),
    });

  /**
   * Writes one email to each side, in the caller's transaction and one statement: `write` makes each reader's text,
   * with times in their zone; `method` adds the calendar invite at the booking's current sequence.
   */
  async function tellBoth(
    tx: Transaction,
    row: BookingRow,
    parties: Map<string, Party>,
    write: (reader: Party, other: Party, when: (instant: Date) => string) => { subject: string; text: string },
    options: { method?: "REQUEST" | "CANCEL"; only?: "learner" | "tutor"; hold?: MailHold } = {},
  ): Promise<void> {
    const learner = row.learnerId ? parties.get(row.learnerId) : undefined;
    const tutor = row.tutorId ? parties.get(row.tutorId) : undefined;
    if (!learner || !tutor) return;
    const calendar = options.method
      ? {
          method: options.method,
          content: inviteOf(row, learner, tutor, options.method),
        }
      : undefined;
    const readers: [Party, Party, "learner" | "tutor"][] = [
      [learner, tutor, "learner"],
      [tutor, learner, "tutor"],
    ];
    const messages: MailMessage[] = [];
    for (const [reader, other, side] of readers) {
      const held = options.hold?.get(reader.id);
      if ((options.only && options.only !== side) || held === "held") continue;
      const { subject, text } = held ? HELD_BACK_NOTICE : write(reader, other, (at) => timeIn(at, reader.timeZone));
      messages.push({
        to: reader.email,
        subject,
        text: [`Hi ${reader.name},`, "", text, "", `The session's page: ${sessionUrl(row)}`].join("\n"),
        calendar: held ? undefined : calendar,
      });
    }
    await mailer.send(messages, tx);
  }

  return { inviteOf, tellBoth };
}

export type Notices = ReturnType<typeof createNotices>;
