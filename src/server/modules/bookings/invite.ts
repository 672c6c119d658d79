import { createEvent, type EventAttributes } from "ics";

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
    title: event.title,
    description: event.description,
    url: event.url,
    status: event.method === "CANCEL" ? "CANCELLED" : "CONFIRMED",
    organizer: event.organizer,
    attendees: event.attendees.map((attendee) => ({
      ...attendee,
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

/** The address part of a From header ("Jalan <no-reply@example.com>" → no-reply@example.com). */
export function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}
