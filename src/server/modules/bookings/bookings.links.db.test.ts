import ICAL from "ical.js";
import { beforeEach, describe, expect, it } from "vitest";
import { bookedMonday, bookingsOnClock } from "#tests/booked-session";
import { createTestApp, ORIGIN } from "#tests/test-app";
import type { BookingView } from "./bookings.contract";

/**
 * Where a session's emails and invites lead (docs/decisions/084-changing-a-time.md): the room, and
 * the reader's own card with the picker of another time or the cancel dialog open; and the reminder
 * of a session moved to start within 10 minutes. Through HTTP on a fake clock.
 */
const t = await createTestApp();
/** Friday 20 March 2026, 00:00 UTC: London is on GMT until Sunday 29 March. */
const START = new Date("2026-03-20T00:00:00.000Z");
let clock = START;
const now = () => clock;
const request = t.requestTo(t.appWith({ now }));
beforeEach(() => {
  clock = START;
});

/** The bookings service on the test's clock, whose reminders the tests send. */
const bookings = bookingsOnClock(t, now);

const mailTo = async (address: string) => (await t.outbox()).filter((mail) => mail.to === address);
const viewOf = async (response: Response) => ((await response.json()) as { booking: BookingView }).booking;

/** A session's links for one side, as the web reads them (src/course/session-links.ts). */
const linksOf = (session: Pick<BookingView, "id" | "chapterId" | "dayId">, side: "learner" | "tutor") => {
  const card =
    side === "learner"
      ? `${ORIGIN}/${session.chapterId}/${session.dayId}/live-session?session=${session.id}`
      : `${ORIGIN}/tutor?session=${session.id}`;
  return { room: `${ORIGIN}/sessions/${session.id}`, card, change: `${card}&do=change`, cancel: `${card}&do=cancel` };
};

/** The invite's event as a calendar reads it (ical.js unfolds its lines). */
function eventOf(content: string) {
  const event = new ICAL.Component(ICAL.parse(content)).getFirstSubcomponent("vevent")!;
  return {
    description: String(event.getFirstPropertyValue("description")),
    url: String(event.getFirstPropertyValue("url")),
    sequence: Number(event.getFirstPropertyValue("sequence")),
  };
}

describe("a session's emails and invites", () => {
  it("lead each reader to the room and to their own card's change and cancel, in the body and the invite", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    for (const [address, side] of [
      [alex.email, "learner"],
      [siti.email, "tutor"],
    ] as const) {
      const links = linksOf(session, side);
      const bookedMail = (await mailTo(address)).find((mail) => mail.subject.startsWith("Booked"));
      expect(bookedMail!.text).toContain(
        [
          `Join the session room: ${links.room}`,
          `Change the time: ${links.change}`,
          `Cancel the session: ${links.cancel}`,
        ].join("\n"),
      );
      const invite = eventOf(bookedMail!.calendar!.content);
      expect(invite.url).toBe(links.room);
      for (const link of [links.room, links.change, links.cancel]) expect(invite.description).toContain(link);
      // The invite the card saves holds the same links.
      const cookie = side === "learner" ? alex.cookie : siti.cookie;
      const saved = await request(`/api/bookings/${session.id}/invite.ics`, { cookie });
      expect(eventOf(await saved.text()).description).toContain(links.change);
    }

    // A request and its answer: the tutor is sent to their card to answer, and after the move both
    // sides' links name the session at its new time.
    const asked = await request(`/api/bookings/${session.id}/propose`, {
      method: "POST",
      cookie: alex.cookie,
      json: { startsAt: "2026-03-30T08:30:00.000Z" },
    });
    expect(asked.status).toBe(200);
    const requestMail = (await mailTo(siti.email)).at(-1)!;
    expect(requestMail.text).toContain(
      `Accept or decline it on the session's card: ${linksOf(session, "tutor").card}\n`,
    );
    const accepted = await request(`/api/bookings/${session.id}/proposal`, {
      method: "POST",
      cookie: siti.cookie,
      json: { accept: true },
    });
    const moved = await viewOf(accepted);
    for (const [address, side] of [
      [alex.email, "learner"],
      [siti.email, "tutor"],
    ] as const) {
      const mail = (await mailTo(address)).at(-1)!;
      expect(mail.subject).toMatch(/^Moved:/);
      expect(mail.text).toContain(`Change the time: ${linksOf(moved, side).change}`);
      const invite = eventOf(mail.calendar!.content);
      expect(invite).toMatchObject({ url: linksOf(moved, side).room, sequence: 1 });
      expect(invite.description).toContain(linksOf(moved, side).cancel);
    }

    // Once cancelled there is nothing to join or change: the card is what is left.
    const cancelled = await request(`/api/bookings/${moved.id}/cancel`, {
      method: "POST",
      cookie: siti.cookie,
      json: {},
    });
    expect(cancelled.status).toBe(200);
    const cancelMail = (await mailTo(alex.email)).at(-1)!;
    expect(cancelMail.text).toContain(`The session's page: ${linksOf(moved, "learner").card}`);
    expect(cancelMail.text).not.toContain("Change the time");
  });
});

describe("the 10-minute reminder", () => {
  it("reaches a session moved to start within 10 minutes, once, with its links", async () => {
    const { siti, alex, session } = await bookedMonday(t, request);
    const post = (cookie: string, path: string, json: object) =>
      request(`/api/bookings/${path}`, { method: "POST", cookie, json });
    // Moved first to Monday 30 March, 09:30 in London (08:30 UTC).
    expect((await post(alex.cookie, `${session.id}/propose`, { startsAt: "2026-03-30T08:30:00.000Z" })).status).toBe(
      200,
    );
    const first = await viewOf(await post(siti.cookie, `${session.id}/proposal`, { accept: true }));
    // That morning, as every minute, the scan runs: the day-before reminder goes.
    clock = new Date("2026-03-30T07:52:00.000Z");
    await bookings.sendReminders();
    // The tutor moves it to 08:00, eight minutes on (their notice is theirs to waive); the learner accepts.
    expect((await post(siti.cookie, `${first.id}/propose`, { startsAt: "2026-03-30T08:00:00.000Z" })).status).toBe(200);
    clock = new Date("2026-03-30T07:53:00.000Z");
    const moved = await viewOf(await post(alex.cookie, `${first.id}/proposal`, { accept: true }));
    expect(moved.startsAt).toBe("2026-03-30T08:00:00.000Z");
    clock = new Date("2026-03-30T07:54:00.000Z");
    expect(await bookings.sendReminders()).toBe(1);
    clock = new Date("2026-03-30T07:55:00.000Z");
    expect(await bookings.sendReminders()).toBe(0);
    for (const [address, side] of [
      [alex.email, "learner"],
      [siti.email, "tutor"],
    ] as const) {
      const soon = (await mailTo(address)).filter((mail) => mail.subject.startsWith("Starting"));
      expect(soon).toHaveLength(1);
      expect(soon[0]!.text).toContain(`Join the session room: ${linksOf(moved, side).room}`);
    }
  });
});
