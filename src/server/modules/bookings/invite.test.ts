import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { calendarInvite, type InviteEvent } from "./invite";

/**
 * Invites read back with ical.js, the parser of Thunderbird and of many web calendars: whatever a
 * person's name holds, the attendee's address stays theirs, the name reads as written, and the
 * event's text keeps its lines.
 */

const LEARNER = "learner@jalan.test";
const TUTOR = "tutor@jalan.test";

function invite(
  learnerName: string,
  description = "Siti (tutor) and the learner. Open the session: https://jalan.test/s",
) {
  const event: InviteEvent = {
    uid: "b6a1@jalan",
    sequence: 0,
    method: "REQUEST",
    startsAt: new Date("2026-03-30T08:00:00Z"),
    endsAt: new Date("2026-03-30T08:30:00Z"),
    title: "Jalan: Day 1: Arrival and greetings live session",
    description,
    url: "https://jalan.test/s",
    organizer: { name: "Jalan", email: "no-reply@jalan.test" },
    attendees: [
      { name: "Siti Tan", email: TUTOR },
      { name: learnerName, email: LEARNER },
    ],
    now: new Date("2026-03-20T00:00:00Z"),
  };
  return calendarInvite(event);
}

/** The event as a calendar reads it: each attendee's address and CN, the summary and description. */
function read(ics: string) {
  const event = new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent("vevent")!;
  return {
    attendees: event.getAllProperties("attendee").map((property) => ({
      address: String(property.getFirstValue()),
      name: property.getParameter("cn"),
    })),
    organizer: String(event.getFirstPropertyValue("organizer")),
    summary: event.getFirstPropertyValue("summary"),
    description: event.getFirstPropertyValue("description"),
    url: event.getFirstPropertyValue("url"),
  };
}

describe("a calendar invite read back by ical.js", () => {
  it("keeps the learner's address when their name closes the quotes and names another one", () => {
    const name = 'E":mailto:attacker@evil.example?body=';
    const read_ = read(invite(name));
    expect(read_.attendees).toEqual([
      { address: `mailto:${TUTOR}`, name: "Siti Tan" },
      { address: `mailto:${LEARNER}`, name },
    ]);
  });

  it("reads a name with double quotes as written", () => {
    const name = 'Aisyah "Echa" Rahman';
    expect(read(invite(name)).attendees[1]).toEqual({ address: `mailto:${LEARNER}`, name });
  });

  it("reads a name with carets as written, RFC 6868's own escapes included", () => {
    const name = "Nur^Aini ^n ^' ^^";
    expect(read(invite(name)).attendees[1]).toEqual({ address: `mailto:${LEARNER}`, name });
  });

  it("reads a stored name with a carriage return, a line feed and other controls as one line", () => {
    const read_ = read(invite("Siti\rAminah\n\u0007Tan"));
    expect(read_.attendees).toHaveLength(2);
    expect(read_.attendees[1]).toEqual({ address: `mailto:${LEARNER}`, name: "Siti Aminah Tan" });
  });

  it("keeps the description whole when it holds a lone carriage return, with no property made of it", () => {
    const read_ = read(
      invite(
        "Alex Tan",
        "Siti (tutor) and Alex\rATTENDEE:mailto:attacker@evil.example\u0000 (learner); notes, too\r\nbye",
      ),
    );
    expect(read_.description).toBe(
      "Siti (tutor) and Alex\nATTENDEE:mailto:attacker@evil.example (learner); notes, too\nbye",
    );
    expect(read_.attendees.map((attendee) => attendee.address)).toEqual([`mailto:${TUTOR}`, `mailto:${LEARNER}`]);
    expect(read_.summary).toBe("Jalan: Day 1: Arrival and greetings live session");
    expect(read_.url).toBe("https://jalan.test/s");
    expect(read_.organizer.toLowerCase()).toBe("mailto:no-reply@jalan.test");
  });
});
