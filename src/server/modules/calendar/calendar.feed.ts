import { createEvents, type EventAttributes } from "ics";
import type { SessionCardAction } from "#course/session-links";
import { plainLines } from "#course/user-text";
import type { CalendarSession } from "#server/modules/bookings/bookings.module";

/**
 * A user's sessions as one iCalendar object (RFC 5545) that calendar apps subscribe to: each
 * session one VEVENT with the UID and SEQUENCE of its invites, so a calendar that also took the
 * emailed invites holds one event, not two. METHOD:PUBLISH, as subscribed calendars are; times in UTC.
 */
export function calendarFeedText(
  sessions: readonly CalendarSession[],
  {
    roomUrl,
    cardUrl,
    now,
  }: {
    roomUrl: (bookingId: string) => string;
    /** The reader's card of the session with its picker of another time or its cancel dialog open. */
    cardUrl: (session: CalendarSession, action: SessionCardAction) => string;
    now: Date;
  },
): string {
  const events = sessions.map((session) => {
    const other = session.youAre === "learner" ? "tutor" : "learner";
    return {
      uid: session.uid,
      sequence: session.sequence,
      timestamp: now.getTime(),
      start: session.startsAt.getTime(),
      startInputType: "utc",
      startOutputType: "utc",
      end: session.endsAt.getTime(),
      endInputType: "utc",
      endOutputType: "utc",
      // TEXT values: the other side's name is theirs to write, so control characters go (invite.ts).
      title: plainLines(`Jalan: ${session.dayTitle} live session with ${session.otherName}`),
      description: plainLines(
        [
          `Your ${session.dayTitle} live session, with ${session.otherName} (${other}).`,
          ...(session.cancelled
            ? []
            : [
                `Join the session room: ${roomUrl(session.id)}`,
                `Change the time: ${cardUrl(session, "change")}`,
                `Cancel the session: ${cardUrl(session, "cancel")}`,
              ]),
        ].join("\n"),
      ),
      url: roomUrl(session.id),
      status: session.cancelled ? "CANCELLED" : "CONFIRMED",
    } satisfies EventAttributes & { timestamp: number };
  });
  const { error, value } = createEvents(events, {
    productId: "-//Jalan//Calendar feed//EN",
    method: "PUBLISH",
    calName: "Jalan live sessions",
  });
  if (error || !value) throw error ?? new Error("The calendar feed could not be written.");
  return value;
}
