import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { booking, callMessage, callRating, callRecord, tutorFeedback, user } from "#server/db/schema";
import type { CallRoom } from "#server/modules/calls/calls.contract";
import { insertBooking } from "#tests/booked-session";
import { createTestApp } from "#tests/test-app";
import type { BookingView, TutorHoursInput, TutorWeek } from "./bookings.contract";

/**
 * An account's deletion and the other side of its sessions (docs/decisions/064), through HTTP with
 * a clock the tests set: the upcoming sessions are cancelled as a cancel would, with a CANCEL to
 * both sides, and the other side keeps them, past ones too, with its own chat lines and ratings.
 */
const t = await createTestApp();

/** Friday 20 March 2026, 00:00 UTC. */
const START = new Date("2026-03-20T00:00:00.000Z");
let clock = START;
const request = t.requestTo(t.appWith({ now: () => clock }));
beforeEach(() => {
  clock = START;
});

const PASSWORD = "kopi-o-kosong";
const MONDAYS: TutorHoursInput = {
  timeZone: "Europe/London",
  bio: "",
  languages: ["Malay"],
  sessionMinutes: 30,
  noticeHours: 12,
  horizonDays: 28,
  weekly: [{ weekday: 1, ranges: [{ start: "09:00", end: "10:00" }] }],
  exceptions: [],
};

async function account(role: "Student" | "Tutor", firstName: string) {
  const { user: details, cookie } = await t.signedInUser({ firstName, lastName: "Tan", password: PASSWORD });
  const [row] = await t.db.update(user).set({ role }).where(eq(user.email, details.email)).returning({ id: user.id });
  if (role === "Tutor") {
    const saved = await request("/api/bookings/hours", { method: "PUT", cookie, json: MONDAYS });
    expect(saved.status).toBe(200);
  }
  return { id: row!.id, email: details.email, cookie };
}

/** Alex books Siti's Monday 23 March, 09:00 London: its view, and the UID of its calendar event. */
async function bookedMonday() {
  const siti = await account("Tutor", "Siti");
  const alex = await account("Student", "Alex");
  const response = await request("/api/bookings/days/chapter-1/day-1", {
    method: "POST",
    cookie: alex.cookie,
    json: { tutorId: siti.id, startsAt: "2026-03-23T09:00:00.000Z" },
  });
  expect(response.status).toBe(201);
  const { booking: session } = (await response.json()) as { booking: BookingView };
  const invite = (await t.outbox()).findLast((mail) => mail.to === alex.email)!.calendar!.content;
  return { siti, alex, session, uid: /UID:(.+)/.exec(invite)![1]! };
}

const deleteAccount = async (cookie: string) => {
  const response = await request("/api/account", { method: "DELETE", cookie, json: { password: PASSWORD } });
  expect(response.status, await response.clone().text()).toBe(200);
};
const mailTo = async (address: string) => (await t.outbox()).filter((mail) => mail.to === address);

/** The CANCEL of the session's event: its UID, the SEQUENCE past the booking's REQUEST. */
function expectCancelOf(mail: Awaited<ReturnType<typeof mailTo>>[number] | undefined, uid: string) {
  expect(mail?.subject).toMatch(/^Cancelled: Day 1: .* live session/);
  expect(mail?.calendar?.method).toBe("CANCEL");
  expect(mail?.calendar?.content).toContain("METHOD:CANCEL");
  expect(mail?.calendar?.content).toContain("STATUS:CANCELLED");
  expect(mail?.calendar?.content).toContain(`UID:${uid}`);
  expect(mail?.calendar?.content).toContain("SEQUENCE:1");
}

describe("a tutor's deletion", () => {
  it("cancels the learner's upcoming session with a CANCEL and tells them why; the learner keeps it, and their past session's chat, ratings and notes", async () => {
    const { siti, alex, session, uid } = await bookedMonday();
    // A session held last Monday: both wrote in its chat, Siti rated a phrase and ended it with notes.
    const past = await insertBooking(t, {
      tutorId: siti.id,
      learnerId: alex.id,
      startsAt: new Date("2026-03-16T09:00:00.000Z"),
    });
    await t.db.insert(callMessage).values([
      { bookingId: past, senderId: alex.id, text: "Selamat pagi, cikgu!" },
      { bookingId: past, senderId: siti.id, text: "Selamat pagi, Alex." },
    ]);
    await t.db.insert(callRating).values({ bookingId: past, taskId: "x", lineId: "y", rating: 4 });
    const [note] = await t.db
      .insert(tutorFeedback)
      .values({ studentId: alex.id, tutorId: siti.id, chapterId: "chapter-1", dayId: "day-1", feedback: "Bagus!" })
      .returning({ id: tutorFeedback.id });
    await t.db.insert(callRecord).values({
      bookingId: past,
      notes: "Bagus!",
      endedAt: new Date("2026-03-16T09:30:00.000Z"),
      endedBy: siti.id,
      feedbackId: note!.id,
    });

    await deleteAccount(siti.cookie);

    const mine = (await (await request("/api/bookings/mine", { cookie: alex.cookie })).json()) as {
      bookings: BookingView[];
    };
    const kept = mine.bookings.find((each) => each.id === session.id);
    expect(kept).toMatchObject({
      status: "cancelled",
      tutor: { id: null, name: "A former tutor", photo: null },
      learner: { id: alex.id, name: "Alex Tan" },
    });
    expect(kept!.changes.map((change) => [change.kind, change.by, change.reason])).toEqual([
      ["booked", "You", null],
      ["cancelled", "A former user", "The tutor closed their Jalan account."],
    ]);
    expect(mine.bookings.find((each) => each.id === past)).toMatchObject({
      status: "confirmed",
      tutor: { id: null, name: "A former tutor" },
    });

    const toAlex = (await mailTo(alex.email)).at(-1);
    expectCancelOf(toAlex, uid);
    expect(toAlex?.text).toContain("is cancelled: your tutor closed their Jalan account.");
    // The leaving tutor's calendar loses the session too: their only mail kept is its CANCEL.
    const toSiti = await mailTo(siti.email);
    expect(toSiti).toHaveLength(1);
    expectCancelOf(toSiti[0], uid);
    expect(toSiti[0]?.text).toContain("is cancelled: you closed your Jalan account.");

    const room = (await (await request(`/api/calls/${past}`, { cookie: alex.cookie })).json()) as CallRoom;
    expect(room.chat.map((message) => [message.from, message.text])).toEqual([[alex.id, "Selamat pagi, cikgu!"]]);
    expect(room.record.notes).toBe("Bagus!");
    expect(room.record.endedAt).toBe("2026-03-16T09:30:00.000Z");
    expect(await t.db.select().from(callRating).where(eq(callRating.bookingId, past))).toHaveLength(1);
  });
});

describe("a learner's deletion", () => {
  it("cancels the tutor's session in their week with a CANCEL and tells them why, forgetting the learner's words", async () => {
    const { siti, alex, session, uid } = await bookedMonday();
    const message = await request(`/api/bookings/${session.id}/messages`, {
      method: "POST",
      cookie: alex.cookie,
      json: { text: "I will bring my notebook." },
    });
    expect(message.status).toBe(201);

    await deleteAccount(alex.cookie);

    const week = (await (await request("/api/bookings/week", { cookie: siti.cookie })).json()) as TutorWeek;
    const kept = week.sessions.find((each) => each.id === session.id);
    expect(kept).toMatchObject({
      status: "cancelled",
      learner: { id: null, name: "A former learner", photo: null },
      tutor: { id: siti.id, name: "Siti Tan" },
    });
    // What the learner wrote went with their account; what happened stays.
    expect(kept!.changes.map((change) => [change.kind, change.by, change.reason])).toEqual([
      ["booked", "A former user", null],
      ["cancelled", "A former user", "The learner closed their Jalan account."],
    ]);
    const toSiti = (await mailTo(siti.email)).at(-1);
    expectCancelOf(toSiti, uid);
    expect(toSiti?.text).toContain("is cancelled: your learner closed their Jalan account.");
    const toAlex = await mailTo(alex.email);
    expect(toAlex).toHaveLength(1);
    expectCancelOf(toAlex[0], uid);

    // Once the tutor goes too, nobody is left to see the session: it goes.
    await deleteAccount(siti.cookie);
    expect(await t.db.select().from(booking).where(eq(booking.id, session.id))).toEqual([]);
  });
});
