import type { Transaction } from "#server/db/client";
import type { MailMessage } from "#server/mail/mailer";
import type { BookingsKit, SessionLinks } from "./bookings.kit";
import { HELD_BACK_NOTICE, type MailHold } from "./bookings.limits";
import type { Party } from "./bookings.parties";
import type { BookingRow } from "./bookings.repository";
import { calendarInvite } from "./invite";
import { timeIn } from "./slots";

/** The UID of every invite of a booking, and of its event in its sides' calendar feeds. */
export const inviteUidOf = (row: Pick<BookingRow, "inviteUid">) => `${row.inviteUid}@jalan`;

/** A side of a session, as its emails and invites are written for it. */
type Side = "learner" | "tutor";

/**
 * The links at the foot of every email about a session, for its reader: the room, changing the
 * time and cancelling while it stands; its card once it is cancelled or moved.
 */
export function linkLines(links: SessionLinks, active: boolean): string[] {
  if (!active) return [`The session's page: ${links.card}`];
  return [
    `Join the session room: ${links.room}`,
    `Change the time: ${links.change}`,
    `Cancel the session: ${links.cancel}`,
  ];
}

/** The mail and calendar invites a booking's changes send its two sides. */
export function createNotices(kit: Pick<BookingsKit, "mailer" | "organizer" | "now" | "dayTitle" | "sessionLinks">) {
  const { mailer, organizer, now, dayTitle, sessionLinks } = kit;

  /**
   * The booking's calendar event as it stands, both sides its attendees (a side whose account is
   * gone left out), written for one of them: its DESCRIPTION holds that side's links, its URL the room.
   */
  const inviteOf = (row: BookingRow, learner: Party, tutor: Party, method: "REQUEST" | "CANCEL", reader: Side) => {
    const links = sessionLinks(row, reader);
    return calendarInvite({
      uid: inviteUidOf(row),
      sequence: row.sequence,
      method,
      startsAt: row.startsAt,
      endsAt: row.endsAt,
      title: `Jalan: ${dayTitle(row)} live session`,
      description: [
        `${tutor.name} (tutor) and ${learner.name} (learner).`,
        ...linkLines(links, method === "REQUEST"),
      ].join("\n"),
      url: links.room,
      organizer,
      attendees: [tutor, learner].filter((party) => party.email).map(({ name, email }) => ({ name, email })),
      now: now(),
    });
  };

  /**
   * Writes one email to each side, in the caller's transaction and one statement: `write` makes each reader's text,
   * with times in their zone and their links; `method` adds the calendar invite at the booking's current sequence.
   */
  async function tellBoth(
    tx: Transaction,
    row: BookingRow,
    parties: Map<string, Party>,
    write: (
      reader: Party,
      other: Party,
      when: (instant: Date) => string,
      links: SessionLinks,
    ) => { subject: string; text: string },
    options: { method?: "REQUEST" | "CANCEL"; only?: "learner" | "tutor"; hold?: MailHold } = {},
  ): Promise<void> {
    const learner = row.learnerId ? parties.get(row.learnerId) : undefined;
    const tutor = row.tutorId ? parties.get(row.tutorId) : undefined;
    if (!learner || !tutor) return;
    const { method } = options;
    const readers: [Party, Party, "learner" | "tutor"][] = [
      [learner, tutor, "learner"],
      [tutor, learner, "tutor"],
    ];
    const messages: MailMessage[] = [];
    for (const [reader, other, side] of readers) {
      const held = options.hold?.get(reader.id);
      if ((options.only && options.only !== side) || held === "held") continue;
      const links = sessionLinks(row, side);
      const when = (at: Date) => timeIn(at, reader.timeZone);
      const { subject, text } = held ? HELD_BACK_NOTICE : write(reader, other, when, links);
      messages.push({
        to: reader.email,
        subject,
        text: [`Hi ${reader.name},`, "", text, "", ...linkLines(links, row.status === "confirmed")].join("\n"),
        calendar: held || !method ? undefined : { method, content: inviteOf(row, learner, tutor, method, side) },
      });
    }
    await mailer.send(messages, tx);
  }

  return { inviteOf, tellBoth };
}

export type Notices = ReturnType<typeof createNotices>;
