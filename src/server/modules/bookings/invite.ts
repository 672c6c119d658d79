import { createEvent, type EventAttributes } from "ics";
import { oneLine, plainLines } from "#course/user-text";

/** What a calendar invite says of a session. */
export interface InviteEvent {
  /** Stable for the event's whole life: every invite of one booking carries it. */
  uid: string;
  /** Raised on each change, so a calendar applies the newest invite and ignores older ones. */
  sequence: number;
  method: "REQUEST" | "CANCEL";
  startsAt: Date;
  endsAt: Date;
  title: string;
  description: string;
  url: string;
  /** The app, which sends every invite; the tutor and the learner are its attendees. */
  organizer: { name: string; email: string };
  attendees: { name: string; email: string }[];
  /** DTSTAMP: when this invite was written. */
  now: Date;
}

/**
 * A session as an iCalendar object (RFC 5545) with its iTIP method (RFC 5546): REQUEST adds the
 * event, or updates it when the SEQUENCE is higher; CANCEL, with STATUS:CANCELLED, removes it.
 * Times are written in UTC; each reader's calendar shows them in their own zone.
 */
export function calendarInvite(event: InviteEvent): string {
  const utc = (instant: Date) => instant.getTime();
  const attributes = {
    productId: "-//Jalan//Live sessions//EN",
    method: event.method,
    uid: event.uid,
    sequence: event.sequence,
    timestamp: utc(event.now),
    start: utc(event.startsAt),
    startInputType: "utc",
    startOutputType: "utc",
    end: utc(event.endsAt),
    endInputType: "utc",
    endOutputType: "utc",
    // TEXT values: ics writes \r\n and \n as "\n" but leaves a lone \r, which ends the line for a
    // reader, and other control characters, which RFC 5545 does not allow.
    title: plainLines(event.title),
    description: plainLines(event.description),
    url: event.url,
    status: event.method === "CANCEL" ? "CANCELLED" : "CONFIRMED",
    organizer: { ...event.organizer, name: nameParameter(event.organizer.name) },
    attendees: event.attendees.map((attendee) => ({
      ...attendee,
      name: nameParameter(attendee.name),
      rsvp: false,
      partstat: "ACCEPTED",
      role: "REQ-PARTICIPANT",
    })),
  } satisfies EventAttributes & { timestamp: number };
  // DTSTAMP from our clock: ics reads `timestamp` (its schema has it; its types leave it out).
  const { error, value } = createEvent(attributes);
  if (error || !value) throw error ?? new Error("The calendar invite could not be written.");
  return value;
}

/**
 * A person's name as the CN parameter's value (RFC 5545 section 3.2, RFC 6868). ics puts the value
 * in double quotes and writes a `"` inside as `\"`, which RFC 5545 has no such escape for: a reader
 * ends the quoted value there, and the rest of the name becomes the attendee's address. A name is
 * one line (oneLine), and RFC 6868's caret encoding carries ^ and " (and a line break, for a value
 * that had one) inside the quotes, so ics finds no `"` to write.
 */
function nameParameter(name: string): string {
  return encodeParameterValue(oneLine(name));
}

/** RFC 6868: ^ as ^^, " as ^', a line break as ^n; control characters other than a tab, which no parameter may hold, dropped. */
function encodeParameterValue(value: string): string {
  return value
    .replace(/\r\n?|\n/g, "\n")
    .replace(/[^\P{Cc}\n\t]/gu, "")
    .replace(/[\^"\n]/g, (character) => ({ "^": "^^", '"': "^'", "\n": "^n" })[character]!);
}

/** The address part of a From header ("Jalan <no-reply@example.com>" → no-reply@example.com). */
export function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}
