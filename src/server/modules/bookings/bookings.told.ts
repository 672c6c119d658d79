import type { Transaction } from "#server/db/client";
import type { Emitter } from "#server/events/events";
import { type BookingChanged, bookingsEvents, type ToldChange } from "./bookings.events";
import type { BookingsKit, SessionLinks } from "./bookings.kit";
import type { MailHold } from "./bookings.limits";
import type { Notices } from "./bookings.notices";
import type { Party } from "./bookings.parties";
import type { BookingRow } from "./bookings.repository";

/** What a change's email says to one reader: `when` writes an instant in the reader's zone; `links` are the reader's. */
type Write = (
  reader: Party,
  other: Party,
  when: (instant: Date) => string,
  links: SessionLinks,
) => { subject: string; text: string };

/** The facts a change's email is made of, as its handler reads them. */
interface Told {
  row: BookingRow;
  other: BookingRow | undefined;
  actorId: string;
  /** What the change's maker wrote; null when nothing, or when it went with their account. */
  words: string | null;
  day: string;
}

const byAdmin = ({ row, actorId }: Told) => actorId !== row.learnerId && actorId !== row.tutorId;
const sideName = (reader: Party, row: BookingRow) => (reader.id === row.learnerId ? "your tutor" : "your learner");

/** Who asked for the new time and who accepted it, as the reader of an "accepted" email reads it. */
function whoMoved(told: Told, reader: Party, other: Party): string {
  const { row, actorId } = told;
  // The side that accepted is the one that did not ask.
  const askedBy = actorId === row.learnerId ? row.tutorId : row.learnerId;
  const accepter = byAdmin(told) ? "an administrator" : reader.id === actorId ? "you" : other.name;
  const asker = reader.id === askedBy ? "You" : other.name;
  return `${asker} asked for it, and ${accepter} accepted.`;
}

/** Each change's email, and to whom: both sides unless `only`, with the invite's REQUEST or CANCEL when `method`. */
const TELLING: Record<
  ToldChange,
  (told: Told) => { write: Write; method?: "REQUEST" | "CANCEL"; only?: "learner" | "tutor" } | undefined
> = {
  booked: ({ row, day }) => ({
    method: "REQUEST",
    write: (_reader, other, when) => ({
      subject: `Booked: ${day} live session, ${when(row.startsAt)}`,
      text: [
        `Your live session for ${day} with ${other.name} is booked for ${when(row.startsAt)}.`,
        "The calendar invite is attached. Join the session room a few minutes before it starts: the link is below.",
      ].join("\n"),
    }),
  }),
  cancelled: (told) => ({
    method: "CANCEL",
    write: (reader, _other, when) => {
      const { row, day, actorId, words } = told;
      const by = reader.id === actorId ? "" : byAdmin(told) ? " by an administrator" : ` by ${sideName(reader, row)}`;
      return {
        subject: `Cancelled: ${day} live session, ${when(row.startsAt)}`,
        text: [
          `Your live session for ${day} on ${when(row.startsAt)} is cancelled${by}.`,
          ...(words ? [`Why: ${words}`] : []),
          "The attached update removes it from your calendar. Book another time on the session's page.",
        ].join("\n"),
      };
    },
  }),
  proposed: (told) => {
    const { row, other: proposal, day, words } = told;
    if (!proposal) return undefined;
    return {
      only: "learner",
      write: (_reader, other, when, links) => ({
        subject: `New time proposed: ${day} live session`,
        text: [
          `${byAdmin(told) ? "An administrator" : other.name} proposes to move your live session for ${day} from ${when(row.startsAt)} to ${when(proposal.startsAt)}.`,
          ...(words ? [`Why: ${words}`] : []),
          `Accept or decline it on the session's card: ${links.card}`,
          "Until you answer, the session stays at its time.",
        ].join("\n"),
      }),
    };
  },
  requested: ({ row, other: request, day, words }) =>
    request && {
      only: "tutor",
      write: (_reader, other, when, links) => ({
        subject: `New time asked for: ${day} live session`,
        text: [
          `${other.name} asks to move your live session for ${day} from ${when(row.startsAt)} to ${when(request.startsAt)}.`,
          ...(words ? [`Why: ${words}`] : []),
          `Accept or decline it on the session's card: ${links.card}`,
          "Until you answer, the session stays at its time.",
        ].join("\n"),
      }),
    },
  // Told to the side that asked: the other side declined.
  declined: (told) => {
    const { row, other: proposal, day, actorId } = told;
    if (!proposal) return undefined;
    return {
      only: actorId === row.learnerId ? "tutor" : "learner",
      write: (_reader, other, when) => ({
        subject: `New time declined: ${day} live session`,
        text: `${byAdmin(told) ? "An administrator" : other.name} declined moving the session to ${when(proposal.startsAt)}. It stays at ${when(row.startsAt)}; cancel it or ask for another time (the links are below) if that does not suit you.`,
      }),
    };
  },
  accepted: (told) => {
    const { row: moved, other: from, day } = told;
    if (!from) return undefined;
    return {
      method: "REQUEST",
      write: (reader, other, when) => ({
        subject: `Moved: ${day} live session, now ${when(moved.startsAt)}`,
        text: [
          `Your live session for ${day} has moved from ${when(from.startsAt)} to ${when(moved.startsAt)}.`,
          whoMoved(told, reader, other),
          "The attached update changes it in your calendar.",
        ].join(" "),
      }),
    };
  },
  // A message that went with its writer's account is not sent.
  message: ({ row, actorId, words, day }) =>
    words === null
      ? undefined
      : {
          only: actorId === row.learnerId ? "tutor" : "learner",
          write: (_reader, other, when) => ({
            subject: `Message from ${other.name} about your ${day} live session`,
            text: [`${other.name} wrote about the session on ${when(row.startsAt)}:`, "", words].join("\n"),
          }),
        },
};

/**
 * bookings.changed's handler: the change's email to each side it concerns, with the calendar invite at
 * the SEQUENCE the change left, written in the handler's transaction (so once). The booking, its sides
 * and what the change's maker wrote are read there: a side whose account is gone gets nothing.
 */
export function createTelling(kit: Pick<BookingsKit, "bookings" | "partiesOf" | "dayTitle">, { tellBoth }: Notices) {
  const { bookings, partiesOf, dayTitle } = kit;
  return {
    async tellChange(changed: BookingChanged, tx: Transaction): Promise<void> {
      // One after another: a transaction's connection runs one query at a time.
      const row = await bookings.byId(changed.bookingId, tx);
      if (!row) return;
      const other = changed.otherBookingId ? await bookings.byId(changed.otherBookingId, tx) : undefined;
      const words = changed.changeId ? await bookings.wordsOf(tx, changed.changeId) : undefined;
      const told = { row, other, actorId: changed.actorId, words: words?.reason ?? null, day: dayTitle(row) };
      const telling = TELLING[changed.change](told);
      if (!telling) return;
      const parties = await partiesOf([row.learnerId, row.tutorId], tx);
      const { write, ...options } = telling;
      await tellBoth(tx, { ...row, sequence: changed.sequence }, parties, write, {
        ...options,
        hold: new Map(Object.entries(changed.hold)),
      });
    },
  };
}

/** What a change records for its email, in the change's transaction: the handler above writes it. */
export function changeTeller(events: Emitter): Tell {
  return (tx, row, told) => {
    const { hold, ...rest } = told;
    return events.emit(tx, bookingsEvents.changed, {
      ...rest,
      bookingId: row.id,
      sequence: row.sequence,
      hold: Object.fromEntries(hold ?? []),
    });
  };
}

/** Records a change for its email: the booking as the change left it, who made it and what it was. */
export type Tell = (
  tx: Transaction,
  row: BookingRow,
  told: Omit<BookingChanged, "bookingId" | "sequence" | "hold"> & { hold?: MailHold },
) => Promise<void>;
