import { desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { booking, bookingChange, eventOutbox } from "#server/db/schema";
import { bookedMonday } from "#tests/booked-session";
import { createTestApp } from "#tests/test-app";
import type { BookingChanged } from "./bookings.events";

/**
 * A booking's changes record `bookings.changed` in their own transaction, and its handler writes the
 * sides' emails and invites (docs/decisions/075): through HTTP on a fake clock, and the handler as the
 * dispatcher runs it, in a transaction of its own.
 */
const t = await createTestApp();
/** Friday 20 March 2026, 00:00 UTC: London is on GMT until Sunday 29 March. */
const now = () => new Date("2026-03-20T00:00:00.000Z");
const request = t.requestTo(t.appWith({ now }));
const bookings = t.modules.bookings.service;

/** Siti's session with Alex on Monday 23 March at 09:00 London, its mail delivered. */
async function booked() {
  const made = await bookedMonday(t, request);
  await t.settleEvents();
  return made;
}

const changedEvents = async () =>
  (
    await t.db
      .select()
      .from(eventOutbox)
      .where(eq(eventOutbox.name, "bookings.changed"))
      .orderBy(desc(eventOutbox.createdAt))
  ).map((row) => row.payload as BookingChanged);
const mailTo = async (address: string) => (await t.outbox()).filter((mail) => mail.to === address);

describe("a booking's change", () => {
  it("records its event with ids only, and its handler writes what the message said to the other side alone", async () => {
    const { siti, alex, session } = await booked();
    const text = "Boleh kita mula lima minit lambat? My train is late.";
    const sent = await request(`/api/bookings/${session.id}/messages`, {
      method: "POST",
      cookie: alex.cookie,
      json: { text },
    });
    expect(sent.status).toBe(201);
    const [event] = await changedEvents();
    expect(event).toMatchObject({ bookingId: session.id, change: "message", actorId: alex.id, hold: {} });
    expect(JSON.stringify(event)).not.toContain("lambat");
    const toSiti = await mailTo(siti.email);
    expect(toSiti.at(-1)).toMatchObject({
      subject: "Message from Alex Tan about your Day 1: Arrival and greetings live session",
    });
    expect(toSiti.at(-1)!.text).toContain(text);
    expect((await mailTo(alex.email)).map((mail) => mail.subject)).not.toContain(
      "Message from Siti Tan about your Day 1: Arrival and greetings live session",
    );
  });

  it("records nothing when it is refused", async () => {
    const { alex, session } = await booked();
    const before = (await changedEvents()).length;
    // A learner asks for a time that is not one of the tutor's open times: 422, and no event.
    const refused = await request(`/api/bookings/${session.id}/propose`, {
      method: "POST",
      cookie: alex.cookie,
      json: { startsAt: "2026-03-30T09:10:00.000Z" },
    });
    expect(refused.status).toBe(422);
    expect((await changedEvents()).length).toBe(before);
  });

  it("is mailed with the invite's SEQUENCE the change left, even when its handler runs after a later change", async () => {
    const { siti, alex, session } = await booked();
    const [bookedEvent] = (await changedEvents()).filter((event) => event.bookingId === session.id);
    expect(bookedEvent).toMatchObject({ change: "booked", sequence: 0 });
    const cancelled = await request(`/api/bookings/${session.id}/cancel`, {
      method: "POST",
      cookie: siti.cookie,
      json: { reason: "Taken ill." },
    });
    expect(cancelled.status).toBe(200);
    await t.settleEvents();
    const [row] = await t.db.select().from(booking).where(eq(booking.id, session.id));
    expect(row!.sequence).toBe(1);
    // The booked event's handler, late: its REQUEST keeps SEQUENCE 0, so calendars keep the CANCEL (SEQUENCE 1).
    await t.db.transaction((tx) => bookings.tellChange(bookedEvent!, tx));
    const invites = (await mailTo(alex.email)).flatMap((mail) => (mail.calendar ? [mail.calendar] : []));
    expect(invites.map((invite) => invite.method)).toEqual(["REQUEST", "CANCEL", "REQUEST"]);
    expect(invites[1]!.content).toContain("SEQUENCE:1");
    expect(invites[2]!.content).toContain("SEQUENCE:0");
  });

  it("sends nothing of a message its writer's account took with it before the handler ran", async () => {
    const { siti, alex, session } = await booked();
    expect(
      (
        await request(`/api/bookings/${session.id}/messages`, {
          method: "POST",
          cookie: alex.cookie,
          json: { text: "Hi" },
        })
      ).status,
    ).toBe(201);
    const [event] = await changedEvents();
    await t.settleEvents();
    const before = (await mailTo(siti.email)).length;
    // What the account's deletion does to the learner's messages (bookings' forgetWordsOf).
    await t.db.delete(bookingChange).where(eq(bookingChange.id, event!.changeId!));
    await t.db.transaction((tx) => bookings.tellChange(event!, tx));
    expect((await mailTo(siti.email)).length).toBe(before);
  });
});
