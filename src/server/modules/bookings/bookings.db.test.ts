import { eq, sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import type { Role } from "#course/roles";
import { connectDatabase } from "#server/db/client";
import { booking, bookingChange, user } from "#server/db/schema";
import type { ErrorBody } from "#server/http/errors";
import type { AccountExport } from "#server/modules/account/account.contract";
import { bookingsOnClock } from "#tests/booked-session";
import { completeDayTasks, sendAs } from "#tests/complete-day";
import { createTestApp, ORIGIN } from "#tests/test-app";
import type { BookingView, DaySlots, TutorHours, TutorHoursInput, TutorWeek } from "./bookings.contract";

/**
 * Tutors' hours, bookings, their changes, invites and reminders, through HTTP on the course, with a
 * fake clock the tests move, and a second instance on its own connections for the races.
 */
const t = await createTestApp();

/** Friday 20 March 2026, 00:00 UTC: London is on GMT until Sunday 29 March, Kuala Lumpur is UTC+8. */
const START = new Date("2026-03-20T00:00:00.000Z");
let clock = START;
const now = () => clock;
const app = t.appWith({ now });
const request = t.requestTo(app);
// A second instance: its own pool of connections to the same database, the same clock.
const second = connectDatabase(t.env.DATABASE_URL!, t.logger, { max: 5 });
afterAll(() => second.close());
const requestSecond = t.requestTo(t.appWith({ now, db: second.db, pool: second.pool }));

const bookingsOn = (db = t.db) => bookingsOnClock(t, now, db);

beforeEach(() => {
  clock = START;
});

const DAY_1 = "/api/bookings/days/chapter-1/day-1";

type Answer = TutorHours &
  DaySlots &
  TutorWeek & { booking: BookingView; bookings: BookingView[]; error: ErrorBody["error"] };
const json = async (response: Response) => (await response.json()) as Answer;

/** A signed-in account in this role and zone. */
async function account(role: Role = "Student", timeZone = "Asia/Kuala_Lumpur", firstName = "Alex") {
  const { user: details, cookie } = await t.signedInUser({ firstName, lastName: "Tan" });
  const [row] = await t.db
    .update(user)
    .set({ role, timeZone })
    .where(eq(user.email, details.email))
    .returning({ id: user.id });
  return { id: row!.id, email: details.email, cookie };
}

/** Mondays 09:00-10:00 in London, 30-minute sessions, the defaults otherwise. */
const LONDON_MONDAYS: TutorHoursInput = {
  timeZone: "Europe/London",
  bio: "Cikgu from Ipoh, teaching in London.",
  languages: ["Malay", "English"],
  sessionMinutes: 30,
  noticeHours: 12,
  horizonDays: 28,
  weekly: [{ weekday: 1, ranges: [{ start: "09:00", end: "10:00" }] }],
  exceptions: [],
};

/** A tutor whose settings say Kuala Lumpur (the default) and whose hours are London's: they read times in London's. */
async function tutor(hours: Partial<TutorHoursInput> = {}, firstName = "Siti") {
  const me = await account("Tutor", "Asia/Kuala_Lumpur", firstName);
  const saved = await request("/api/bookings/hours", {
    method: "PUT",
    cookie: me.cookie,
    json: { ...LONDON_MONDAYS, ...hours },
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
  return me;
}

const book = (cookie: string, tutorId: string, startsAt: string, send = request, path = DAY_1) =>
  send(path, { method: "POST", cookie, json: { tutorId, startsAt } });

const bookingCount = async () => (await t.db.select({ count: sql<number>`count(*)::int` }).from(booking))[0]!.count;
const mailTo = async (address: string) => (await t.outbox()).filter((mail) => mail.to === address);

describe("a tutor's hours", () => {
  it("are the defaults in the tutor's zone until saved, then as saved; learners cannot read or set them", async () => {
    const me = await account("Tutor", "Europe/London");
    const before = await json(await request("/api/bookings/hours", { cookie: me.cookie }));
    expect(before.saved).toBe(false);
    expect(before.availability).toEqual({
      timeZone: "Europe/London",
      sessionMinutes: 30,
      noticeHours: 12,
      horizonDays: 28,
      weekly: [],
      exceptions: [],
    });
    const put = await request("/api/bookings/hours", {
      method: "PUT",
      cookie: me.cookie,
      json: {
        ...LONDON_MONDAYS,
        weekly: [
          {
            weekday: 3,
            ranges: [
              { start: "14:00", end: "15:00" },
              { start: "09:00", end: "10:00" },
            ],
          },
        ],
        exceptions: [
          { date: "2026-04-06", kind: "off" },
          { date: "2026-04-08", kind: "extra", ranges: [{ start: "18:00", end: "19:00" }] },
          // Past dates are dropped when saved.
          { date: "2026-01-05", kind: "off" },
        ],
      },
    });
    expect(put.status).toBe(200);
    const saved = await json(put);
    expect(saved.saved).toBe(true);
    expect(saved.profile).toMatchObject({ bio: LONDON_MONDAYS.bio, languages: ["Malay", "English"] });
    expect(saved.availability.weekly).toEqual([
      {
        weekday: 3,
        ranges: [
          { start: "09:00", end: "10:00" },
          { start: "14:00", end: "15:00" },
        ],
      },
    ]);
    expect(saved.availability.exceptions.map((exception) => exception.date)).toEqual(["2026-04-06", "2026-04-08"]);

    const learner = await account();
    expect((await request("/api/bookings/hours", { cookie: learner.cookie })).status).toBe(403);
    const refused = await request("/api/bookings/hours", {
      method: "PUT",
      cookie: learner.cookie,
      json: LONDON_MONDAYS,
    });
    expect(refused.status).toBe(403);
  });

  it("refuses overlapping ranges, a range that ends before it starts, an unknown zone and an odd length, saving nothing", async () => {
    const me = await tutor();
    const cases: [Partial<TutorHoursInput>, string][] = [
      [
        {
          weekly: [
            {
              weekday: 1,
              ranges: [
                { start: "09:00", end: "10:30" },
                { start: "10:00", end: "11:00" },
              ],
            },
          ],
        },
        "Monday: 09:00–10:30 overlaps 10:00–11:00. Hours on one day must not overlap.",
      ],
      [
        {
          weekly: [
            {
              weekday: 3,
              ranges: [
                { start: "14:00", end: "17:00" },
                { start: "14:00", end: "17:00" },
              ],
            },
          ],
        },
        "Wednesday: 14:00–17:00 is there twice. Hours on one day must not overlap.",
      ],
      [
        {
          exceptions: [
            {
              date: "2099-05-04",
              kind: "extra",
              ranges: [
                { start: "08:00", end: "12:00" },
                { start: "11:59", end: "13:00" },
              ],
            },
          ],
        },
        "Extra hours on 2099-05-04: 08:00–12:00 overlaps 11:59–13:00.",
      ],
      [
        { weekly: [{ weekday: 1, ranges: [{ start: "10:00", end: "09:00" }] }] },
        "Each range must end after it starts.",
      ],
      [{ weekly: [{ weekday: 1, ranges: [{ start: "9am", end: "10:00" }] }] }, "A start must be a time such as 09:30."],
      [{ timeZone: "Mars/Olympus_Mons" }, "Time zone must be an IANA name such as Europe/London."],
      [{ sessionMinutes: 25 as 30 }, "Session length must be one of 15, 20, 30, 45, 60, 90, 120 minutes."],
      [{ exceptions: [{ date: "2026-02-30", kind: "off" }] }, "That date does not exist."],
    ];
    for (const [change, message] of cases) {
      const response = await request("/api/bookings/hours", {
        method: "PUT",
        cookie: me.cookie,
        json: { ...LONDON_MONDAYS, ...change },
      });
      expect(response.status).toBe(400);
      expect((await json(response)).error.message).toContain(message);
    }
    const kept = await json(await request("/api/bookings/hours", { cookie: me.cookie }));
    expect(kept.availability.weekly).toEqual(LONDON_MONDAYS.weekly);
    expect(kept.availability.timeZone).toBe("Europe/London");
  });
});

describe("open slots and booking", () => {
  it("shows a Kuala Lumpur learner a London tutor's Mondays across the clock change, and books one with an invite to both", async () => {
    const siti = await tutor();
    const alex = await account();
    const slots = await json(await request(`${DAY_1}/slots?tutorId=${siti.id}`, { cookie: alex.cookie }));
    expect(slots.timeZone).toBe("Asia/Kuala_Lumpur");
    expect(slots.tutors.map((card) => card.id)).toContain(siti.id);
    const starts = slots.slots.map((slot) => slot.startsAt);
    // 09:00 in London: 09:00 UTC before the clocks go forward on 29 March, 08:00 UTC after.
    expect(starts.slice(0, 4)).toEqual([
      "2026-03-23T09:00:00.000Z",
      "2026-03-23T09:30:00.000Z",
      "2026-03-30T08:00:00.000Z",
      "2026-03-30T08:30:00.000Z",
    ]);

    const before = await t.outbox();
    const response = await book(alex.cookie, siti.id, "2026-03-30T08:00:00.000Z");
    expect(response.status, await response.clone().text()).toBe(201);
    const { booking: booked } = await json(response);
    expect(booked).toMatchObject({
      status: "confirmed",
      startsAt: "2026-03-30T08:00:00.000Z",
      endsAt: "2026-03-30T08:30:00.000Z",
      youAre: "learner",
      tutor: { id: siti.id, name: "Siti Tan" },
      learner: { id: alex.id, name: "Alex Tan" },
      freeCancelUntil: "2026-03-29T20:00:00.000Z",
      changes: [{ kind: "booked", by: "You", reason: null }],
    });

    const mails = (await t.outbox()).slice(before.length);
    expect(mails.map((mail) => mail.to).sort()).toEqual([alex.email, siti.email].sort());
    const toAlex = mails.find((mail) => mail.to === alex.email)!;
    const toSiti = mails.find((mail) => mail.to === siti.email)!;
    // Each reader's own zone: 16:00 in Kuala Lumpur is 09:00 British Summer Time.
    expect(toAlex.subject).toBe(
      "Booked: Day 1: Arrival and greetings live session, Mon, 30 Mar 2026, 16:00 (Asia/Kuala Lumpur)",
    );
    expect(toSiti.subject).toBe(
      "Booked: Day 1: Arrival and greetings live session, Mon, 30 Mar 2026, 09:00 (Europe/London)",
    );
    for (const mail of [toAlex, toSiti]) {
      expect(mail.calendar?.method).toBe("REQUEST");
      expect(mail.calendar?.content).toContain("METHOD:REQUEST");
      expect(mail.calendar?.content).toContain("DTSTART:20260330T080000Z");
      expect(mail.calendar?.content).toContain("DTEND:20260330T083000Z");
      expect(mail.calendar?.content).toContain("SEQUENCE:0");
      expect(mail.calendar?.content).toContain(`URL:${ORIGIN}/sessions/${booked.id}`);
    }
    const uid = /UID:(.+)/.exec(toAlex.calendar!.content)![1];
    expect(toSiti.calendar!.content).toContain(`UID:${uid}`);

    // The slot is gone for everyone else; the invite is served to the booking's two sides.
    const other = await account();
    const after = await json(await request(`${DAY_1}/slots?tutorId=${siti.id}`, { cookie: other.cookie }));
    expect(after.slots.map((slot) => slot.startsAt)).not.toContain("2026-03-30T08:00:00.000Z");
    const invite = await request(`/api/bookings/${booked.id}/invite.ics`, { cookie: siti.cookie });
    expect(invite.status).toBe(200);
    expect(invite.headers.get("content-type")).toContain("text/calendar");
    expect(await invite.text()).toContain(`UID:${uid}`);
    expect((await request(`/api/bookings/${booked.id}/invite.ics`, { cookie: other.cookie })).status).toBe(404);
  });

  it("offers every tutor's slots as first available, each start once, and leaves out the learner's own sessions", async () => {
    const siti = await tutor({}, "Aminah");
    const farid = await tutor({ weekly: [{ weekday: 1, ranges: [{ start: "09:30", end: "10:30" }] }] }, "Farid");
    const alex = await account();
    const first = await json(await request(`${DAY_1}/slots`, { cookie: alex.cookie }));
    expect(first.tutorId).toBeNull();
    const monday = first.slots.filter((slot) => slot.startsAt.startsWith("2026-03-23"));
    expect(monday.map((slot) => slot.startsAt)).toEqual([
      "2026-03-23T09:00:00.000Z",
      "2026-03-23T09:30:00.000Z",
      "2026-03-23T10:00:00.000Z",
    ]);
    expect(new Set(first.slots.map((slot) => slot.startsAt)).size).toBe(first.slots.length);
    // 09:30 is both tutors'; Aminah comes first by name, and only Farid teaches at 10:00.
    const at = (start: string) => monday.find((slot) => slot.startsAt === start)?.tutorId;
    expect(at("2026-03-23T09:30:00.000Z")).toBe(siti.id);
    expect(at("2026-03-23T10:00:00.000Z")).toBe(farid.id);
    // Each tutor's card says when they are next free, for this learner.
    // (Tutors of earlier tests are in the list too: only these two are compared.)
    const next = (answer: DaySlots) =>
      Object.fromEntries(
        answer.tutors
          .filter((each) => [siti.id, farid.id].includes(each.id))
          .map((each) => [each.id, each.nextAvailable]),
      );
    expect(next(first)).toEqual({ [siti.id]: "2026-03-23T09:00:00.000Z", [farid.id]: "2026-03-23T09:30:00.000Z" });

    // Alex books Aminah at 09:30: Farid is still free then, for others, but not for Alex.
    expect((await book(alex.cookie, siti.id, "2026-03-23T09:30:00.000Z")).status).toBe(201);
    const forAlex = await json(await request(`${DAY_1}/slots`, { cookie: alex.cookie }));
    expect(forAlex.slots.map((slot) => slot.startsAt)).not.toContain("2026-03-23T09:30:00.000Z");
    // Asked for one tutor, the answer still says when the others are next free; Farid's 09:30 is Alex's own time now.
    const onlySiti = await json(await request(`${DAY_1}/slots?tutorId=${siti.id}`, { cookie: alex.cookie }));
    expect(new Set(onlySiti.slots.map((slot) => slot.tutorId))).toEqual(new Set([siti.id]));
    expect(next(onlySiti)).toEqual({ [siti.id]: "2026-03-23T09:00:00.000Z", [farid.id]: "2026-03-23T10:00:00.000Z" });
    const bea = await account();
    const forBea = await json(await request(`${DAY_1}/slots`, { cookie: bea.cookie }));
    expect(forBea.slots.find((slot) => slot.startsAt === "2026-03-23T09:30:00.000Z")?.tutorId).toBe(farid.id);
  });

  it("refuses a time past, inside the notice, too far ahead, off the tutor's hours or taken, a locked day, and an unknown tutor, changing nothing", async () => {
    const siti = await tutor();
    const alex = await account();
    const taken = await account();
    expect((await book(taken.cookie, siti.id, "2026-03-23T09:30:00.000Z")).status).toBe(201);
    clock = new Date("2026-03-23T00:00:00.000Z");
    const rows = await bookingCount();
    const mails = (await t.outbox()).length;
    const cases: [string, string, number, string, string?][] = [
      ["2026-03-16T09:00:00.000Z", siti.id, 422, "SLOT_PAST"],
      ["2026-03-23T09:00:00.000Z", siti.id, 422, "SLOT_INSIDE_NOTICE"],
      ["2026-05-04T08:00:00.000Z", siti.id, 422, "SLOT_TOO_FAR"],
      ["2026-03-30T08:15:00.000Z", siti.id, 422, "SLOT_OUTSIDE_HOURS"],
      ["2026-03-31T08:00:00.000Z", siti.id, 422, "SLOT_OUTSIDE_HOURS"],
      ["2026-03-30T08:00:00.000Z", alex.id, 422, "OWN_SESSION"],
      ["2026-03-30T08:00:00.000Z", taken.id, 422, "NOT_A_TUTOR"],
      ["2026-03-30T08:00:00.000Z", siti.id, 409, "DAY_LOCKED", "/api/bookings/days/chapter-1/day-2"],
    ];
    for (const [startsAt, tutorId, status, code, path] of cases) {
      const response = await book(alex.cookie, tutorId, startsAt, request, path);
      expect(response.status, `${startsAt} ${code}`).toBe(status);
      const { error } = await json(response);
      expect(error.code).toBe(code);
      expect(error.message.length).toBeGreaterThan(10);
    }
    expect(
      (
        await json(
          await book(alex.cookie, siti.id, "2026-03-30T08:00:00.000Z", request, "/api/bookings/days/chapter-1/day-2"),
        )
      ).error.message,
    ).toBe("Day 2 is locked. Finish Day 1 first.");
    expect(await bookingCount()).toBe(rows);
    expect((await t.outbox()).length).toBe(mails);

    // A taken slot is refused whoever asks, and only once it is outside the notice.
    clock = new Date("2026-03-30T00:00:00.000Z");
    const other = await account();
    expect((await book(other.cookie, siti.id, "2026-03-30T08:00:00.000Z")).status).toBe(422);
    expect((await book(other.cookie, siti.id, "2026-04-06T08:00:00.000Z")).status).toBe(201);
    const again = await book(alex.cookie, siti.id, "2026-04-06T08:00:00.000Z");
    expect(again.status).toBe(409);
    expect((await json(again)).error).toMatchObject({
      code: "SLOT_TAKEN",
      message: "Someone has just booked that time. Pick another.",
    });
  });

  it("holds a learner to one upcoming session a day and three in all", async () => {
    const siti = await tutor({
      weekly: [1, 2, 3, 4, 5].map((weekday) => ({ weekday: weekday as 1, ranges: [{ start: "09:00", end: "12:00" }] })),
    });
    // A member of staff has every day open, so the limit in all is reached before any lock.
    const staff = await account("Tutor");
    expect((await book(staff.cookie, siti.id, "2026-03-23T09:00:00.000Z")).status).toBe(201);
    const sameDay = await book(staff.cookie, siti.id, "2026-03-24T09:00:00.000Z");
    expect(sameDay.status).toBe(409);
    expect((await json(sameDay)).error.code).toBe("DAY_ALREADY_BOOKED");
    const day = (id: string) => `/api/bookings/days/chapter-1/${id}`;
    expect((await book(staff.cookie, siti.id, "2026-03-24T09:00:00.000Z", request, day("day-2"))).status).toBe(201);
    expect((await book(staff.cookie, siti.id, "2026-03-25T09:00:00.000Z", request, day("day-3"))).status).toBe(201);
    const fourth = await book(staff.cookie, siti.id, "2026-03-26T09:00:00.000Z", request, day("day-4"));
    expect(fourth.status).toBe(409);
    expect((await json(fourth)).error).toMatchObject({
      code: "TOO_MANY_BOOKINGS",
      message: "You can hold at most 3 upcoming sessions. Have one, or cancel one, before booking another.",
    });
  });
});

describe("two instances booking the same time", () => {
  it("let exactly one learner have it, every time: PostgreSQL's exclusion constraint decides", async () => {
    const siti = await tutor({
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
        weekday: weekday as 1,
        ranges: [{ start: "06:00", end: "12:00" }],
      })),
    });
    const starts = [
      "2026-03-23T06:00:00.000Z",
      "2026-03-24T07:30:00.000Z",
      "2026-03-25T09:00:00.000Z",
      "2026-03-26T11:30:00.000Z",
    ];
    for (const startsAt of starts) {
      const [a, b] = [await account(), await account()];
      const answers = await Promise.all([
        book(a.cookie, siti.id, startsAt),
        book(b.cookie, siti.id, startsAt, requestSecond),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      const loser = answers.find((answer) => answer.status === 409)!;
      expect((await json(loser)).error.code).toBe("SLOT_TAKEN");
      const held = await t.db
        .select({ id: booking.id })
        .from(booking)
        .where(sql`${booking.tutorId} = ${siti.id} and ${booking.startsAt} = ${startsAt}::timestamptz`);
      expect(held).toHaveLength(1);
    }
  });

  it("cannot be got round by writing to the table: an overlapping row of another event is refused", async () => {
    const siti = await tutor();
    const [a, b] = [await account(), await account()];
    expect((await book(a.cookie, siti.id, "2026-03-23T09:00:00.000Z")).status).toBe(201);
    const overlapping = t.db.insert(booking).values({
      inviteUid: crypto.randomUUID(),
      tutorId: siti.id,
      learnerId: b.id,
      chapterId: "chapter-1",
      dayId: "day-1",
      startsAt: new Date("2026-03-23T09:15:00.000Z"),
      endsAt: new Date("2026-03-23T09:45:00.000Z"),
      status: "confirmed",
    });
    await expect(overlapping).rejects.toSatisfy((error: { cause?: { code?: string; constraint?: string } }) => {
      return error.cause?.code === "23P01" && error.cause.constraint === "booking_tutor_time_excl";
    });
  });
});

describe("changes to a booking", () => {
  async function booked(startsAt = "2026-03-30T08:00:00.000Z") {
    const siti = await tutor();
    const alex = await account();
    const response = await book(alex.cookie, siti.id, startsAt);
    expect(response.status).toBe(201);
    return { siti, alex, booking: (await json(response)).booking };
  }

  it("lets the learner cancel until 12 hours before, sending both a CANCEL with the same UID and a higher SEQUENCE", async () => {
    const { siti, alex, booking: session } = await booked();
    const request0 = (await mailTo(alex.email)).at(-1)!.calendar!.content;
    const uid = /UID:(.+)/.exec(request0)![1];
    clock = new Date("2026-03-29T19:59:00.000Z");
    const response = await request(`/api/bookings/${session.id}/cancel`, {
      method: "POST",
      cookie: alex.cookie,
      json: { reason: "I have a family dinner." },
    });
    expect(response.status).toBe(200);
    const { booking: cancelled } = await json(response);
    expect(cancelled.status).toBe("cancelled");
    expect(cancelled.changes.map((change) => [change.kind, change.by, change.reason])).toEqual([
      ["booked", "You", null],
      ["cancelled", "You", "I have a family dinner."],
    ]);
    for (const address of [alex.email, siti.email]) {
      const mail = (await mailTo(address)).at(-1)!;
      expect(mail.subject).toMatch(/^Cancelled: /);
      expect(mail.calendar?.method).toBe("CANCEL");
      expect(mail.calendar?.content).toContain("METHOD:CANCEL");
      expect(mail.calendar?.content).toContain("STATUS:CANCELLED");
      expect(mail.calendar?.content).toContain(`UID:${uid}`);
      expect(mail.calendar?.content).toContain("SEQUENCE:1");
    }
    expect((await mailTo(siti.email)).at(-1)!.text).toContain("is cancelled by your learner.");
    // The time is free again.
    const other = await account();
    expect((await book(other.cookie, siti.id, "2026-03-30T08:00:00.000Z")).status).toBe(201);
  });

  it("inside 12 hours tells the learner why not and lets them message the tutor; the tutor may still cancel", async () => {
    const { siti, alex, booking: session } = await booked();
    clock = new Date("2026-03-29T20:01:00.000Z");
    const late = await request(`/api/bookings/${session.id}/cancel`, { method: "POST", cookie: alex.cookie, json: {} });
    expect(late.status).toBe(409);
    expect((await json(late)).error).toEqual({
      code: "CANCEL_TOO_LATE",
      message: "Sessions can be cancelled up to 12 hours before they start. Send your tutor a message instead.",
    });
    const message = await request(`/api/bookings/${session.id}/messages`, {
      method: "POST",
      cookie: alex.cookie,
      json: { text: "Maaf, I may be 10 minutes late." },
    });
    expect(message.status).toBe(201);
    const toSiti = (await mailTo(siti.email)).at(-1)!;
    expect(toSiti.subject).toBe("Message from Alex Tan about your Day 1: Arrival and greetings live session");
    expect(toSiti.text).toContain("Maaf, I may be 10 minutes late.");
    expect(toSiti.text).toContain("Mon, 30 Mar 2026, 09:00 (Europe/London)");
    const byTutor = await request(`/api/bookings/${session.id}/cancel`, {
      method: "POST",
      cookie: siti.cookie,
      json: { reason: "I am unwell." },
    });
    expect(byTutor.status).toBe(200);
    const { booking: cancelled } = await json(byTutor);
    expect(cancelled.changes.map((change) => [change.kind, change.by])).toEqual([
      ["booked", "Alex Tan"],
      ["message", "Alex Tan"],
      ["cancelled", "You"],
    ]);
    expect((await mailTo(alex.email)).at(-1)!.text).toContain("is cancelled by your tutor.\nWhy: I am unwell.");
  });

  it("lets the tutor propose a new time, held until the learner accepts it; the invite moves with SEQUENCE 1", async () => {
    const { siti, alex, booking: session } = await booked();
    const proposed = await request(`/api/bookings/${session.id}/propose`, {
      method: "POST",
      cookie: siti.cookie,
      json: { startsAt: "2026-04-06T08:00:00.000Z", reason: "A training day on the 30th." },
    });
    expect(proposed.status, await proposed.clone().text()).toBe(200);
    expect((await mailTo(alex.email)).at(-1)!.subject).toBe(
      "New time proposed: Day 1: Arrival and greetings live session",
    );
    const seen = (await json(await request(`/api/bookings/${session.id}`, { cookie: alex.cookie }))).booking;
    expect(seen.proposal).toEqual({
      startsAt: "2026-04-06T08:00:00.000Z",
      endsAt: "2026-04-06T08:30:00.000Z",
      reason: "A training day on the 30th.",
      by: "tutor",
    });
    expect(seen.startsAt).toBe("2026-03-30T08:00:00.000Z");
    // The proposed time is held: it is not offered, and nobody else can book the tutor then.
    const other = await account();
    const offered = await json(await request(`${DAY_1}/slots?tutorId=${siti.id}`, { cookie: other.cookie }));
    expect(offered.slots.map((slot) => slot.startsAt)).not.toContain("2026-04-06T08:00:00.000Z");
    expect((await book(other.cookie, siti.id, "2026-04-06T08:00:00.000Z")).status).toBe(409);
    // Someone else's session is not there for them to move (a learner's own request: bookings.move.db.test.ts).
    const notTheirs = await request(`/api/bookings/${session.id}/propose`, {
      method: "POST",
      cookie: other.cookie,
      json: { startsAt: "2026-04-13T08:00:00.000Z" },
    });
    expect(notTheirs.status).toBe(404);

    const accepted = await request(`/api/bookings/${session.id}/proposal`, {
      method: "POST",
      cookie: alex.cookie,
      json: { accept: true },
    });
    expect(accepted.status).toBe(200);
    const { booking: moved } = await json(accepted);
    expect(moved).toMatchObject({ status: "confirmed", startsAt: "2026-04-06T08:00:00.000Z", proposal: null });
    expect(moved.id).not.toBe(session.id);
    expect(moved.changes.map((change) => change.kind)).toEqual(["booked", "proposed", "accepted"]);
    const firstInvite = (await mailTo(alex.email)).find((mail) => mail.subject.startsWith("Booked"))!;
    const uid = /UID:(.+)/.exec(firstInvite.calendar!.content)![1];
    const mails = [(await mailTo(alex.email)).at(-1)!, (await mailTo(siti.email)).at(-1)!];
    for (const mail of mails) {
      expect(mail.calendar?.content).toContain(`UID:${uid}`);
      expect(mail.calendar?.content).toContain("SEQUENCE:1");
      expect(mail.calendar?.content).toContain("DTSTART:20260406T080000Z");
    }
    expect(mails[0]!.subject).toBe(
      "Moved: Day 1: Arrival and greetings live session, now Mon, 6 Apr 2026, 16:00 (Asia/Kuala Lumpur)",
    );
    // The old time is free again, and the learner's list holds the session once, at its new time.
    expect((await book(other.cookie, siti.id, "2026-03-30T08:00:00.000Z")).status).toBe(201);
    const mine = await json(await request("/api/bookings/mine", { cookie: alex.cookie }));
    expect(mine.bookings.map((each) => each.id)).toEqual([moved.id]);
  });

  it("keeps the session at its time when the learner declines, and tells the tutor", async () => {
    const { siti, alex, booking: session } = await booked();
    // The next session of Siti's Monday hours (a time outside them is no proposal: bookings.proposal.db.test.ts).
    const proposed = await request(`/api/bookings/${session.id}/propose`, {
      method: "POST",
      cookie: siti.cookie,
      json: { startsAt: "2026-03-30T08:30:00.000Z" },
    });
    expect(proposed.status).toBe(200);
    const declined = await request(`/api/bookings/${session.id}/proposal`, {
      method: "POST",
      cookie: alex.cookie,
      json: { accept: false },
    });
    expect(declined.status).toBe(200);
    const { booking: kept } = await json(declined);
    expect(kept).toMatchObject({
      id: session.id,
      startsAt: "2026-03-30T08:00:00.000Z",
      proposal: null,
      status: "confirmed",
    });
    expect((await mailTo(siti.email)).at(-1)!.subject).toBe(
      "New time declined: Day 1: Arrival and greetings live session",
    );
    const again = await request(`/api/bookings/${session.id}/proposal`, {
      method: "POST",
      cookie: alex.cookie,
      json: { accept: true },
    });
    expect(again.status).toBe(409);
    expect((await json(again)).error.code).toBe("NO_PROPOSAL");
  });

  it("lets either side mark a no-show only after the start, once", async () => {
    const { siti, alex, booking: session } = await booked();
    const early = await request(`/api/bookings/${session.id}/no-show`, {
      method: "POST",
      cookie: siti.cookie,
      json: {},
    });
    expect(early.status).toBe(409);
    expect((await json(early)).error.code).toBe("NOT_STARTED");
    clock = new Date("2026-03-30T08:11:00.000Z");
    const marked = await request(`/api/bookings/${session.id}/no-show`, {
      method: "POST",
      cookie: siti.cookie,
      json: {},
    });
    expect(marked.status).toBe(200);
    expect((await json(marked)).booking).toMatchObject({ noShow: "learner" });
    const twice = await request(`/api/bookings/${session.id}/no-show`, {
      method: "POST",
      cookie: alex.cookie,
      json: {},
    });
    expect(twice.status).toBe(409);
    const changes = await t.db.select().from(bookingChange).where(eq(bookingChange.bookingId, session.id));
    expect(changes.map((change) => [change.kind, change.actorId])).toEqual([
      ["booked", alex.id],
      ["no-show", siti.id],
    ]);
  });

  it("is served only to the booking's learner, its tutor and Admins", async () => {
    const { booking: session } = await booked();
    const stranger = await account();
    const otherTutor = await account("Tutor");
    const admin = await account("Admin");
    for (const who of [stranger, otherTutor]) {
      expect((await request(`/api/bookings/${session.id}`, { cookie: who.cookie })).status).toBe(404);
      const cancel = await request(`/api/bookings/${session.id}/cancel`, {
        method: "POST",
        cookie: who.cookie,
        json: {},
      });
      expect(cancel.status).toBe(404);
    }
    const seen = await request(`/api/bookings/${session.id}`, { cookie: admin.cookie });
    expect(seen.status).toBe(200);
    expect((await json(seen)).booking.youAre).toBe("admin");
    expect((await request("/api/bookings/not-a-booking", { cookie: admin.cookie })).status).toBe(404);
  });
});

describe("reminders", () => {
  it("go out 24 hours and 10 minutes before, once each to each side however many instances scan, in each reader's zone now", async () => {
    const siti = await tutor();
    const alex = await account();
    expect((await book(alex.cookie, siti.id, "2026-03-30T08:00:00.000Z")).status).toBe(201);
    const first = bookingsOn();
    const other = bookingsOn(second.db);
    expect(await first.sendReminders()).toBe(0);

    // Alex moves to Tokyo after booking: the reminder is written in the zone they read in now.
    const moved = await request("/api/settings", {
      method: "PATCH",
      cookie: alex.cookie,
      json: { timeZone: "Asia/Tokyo" },
    });
    expect(moved.status).toBe(200);
    clock = new Date("2026-03-29T08:01:00.000Z");
    await Promise.all([first.sendReminders(), other.sendReminders(), first.sendReminders()]);
    const reminders = async (address: string) =>
      (await mailTo(address)).filter((mail) => /^(Tomorrow|Starting)/.test(mail.subject)).map((mail) => mail.subject);
    expect(await reminders(alex.email)).toEqual([
      "Tomorrow: Day 1: Arrival and greetings live session, Mon, 30 Mar 2026, 17:00 (Asia/Tokyo)",
    ]);
    expect(await reminders(siti.email)).toEqual([
      "Tomorrow: Day 1: Arrival and greetings live session, Mon, 30 Mar 2026, 09:00 (Europe/London)",
    ]);

    clock = new Date("2026-03-30T07:51:00.000Z");
    await Promise.all([first.sendReminders(), other.sendReminders()]);
    clock = new Date("2026-03-30T07:55:00.000Z");
    await first.sendReminders();
    for (const address of [alex.email, siti.email]) {
      const [, soon, ...more] = await reminders(address);
      expect(soon).toBe("Starting in 10 minutes: Day 1: Arrival and greetings live session");
      expect(more).toEqual([]);
    }
    const toAlex = (await mailTo(alex.email)).at(-1)!;
    expect(toAlex.text).toContain("with Siti Tan starts at Mon, 30 Mar 2026, 17:00 (Asia/Tokyo)");
  });

  it("skip the day-before reminder for a session booked inside a day, and send none for a cancelled one", async () => {
    const siti = await tutor({ noticeHours: 2 });
    const alex = await account();
    const bea = await account();
    const later = await json(await book(bea.cookie, siti.id, "2026-03-30T08:00:00.000Z"));
    expect(
      (await request(`/api/bookings/${later.booking.id}/cancel`, { method: "POST", cookie: bea.cookie, json: {} }))
        .status,
    ).toBe(200);
    clock = new Date("2026-03-22T20:00:00.000Z");
    expect((await book(alex.cookie, siti.id, "2026-03-23T09:00:00.000Z")).status).toBe(201);
    const scan = bookingsOn();
    const reminders = async (address: string) =>
      (await mailTo(address)).filter((mail) => /^(Tomorrow|Starting)/.test(mail.subject)).map((mail) => mail.subject);
    clock = new Date("2026-03-22T21:00:00.000Z");
    await scan.sendReminders();
    expect(await reminders(alex.email)).toEqual([]);
    clock = new Date("2026-03-23T08:52:00.000Z");
    await scan.sendReminders();
    expect(await reminders(alex.email)).toEqual(["Starting in 10 minutes: Day 1: Arrival and greetings live session"]);
    clock = new Date("2026-03-29T09:00:00.000Z");
    await scan.sendReminders();
    clock = new Date("2026-03-30T07:55:00.000Z");
    await scan.sendReminders();
    expect(await reminders(bea.email)).toEqual([]);
  });
});

describe("the tutor's week", () => {
  it("lists the tutor's sessions from today and the learners who finished a day's self-study without booking it", async () => {
    const siti = await tutor();
    const waiting = await account("Student", "Asia/Kuala_Lumpur", "Nur");
    const outcomes = await completeDayTasks(sendAs(t, waiting.cookie), t.course, "chapter-1", "day-1", {
      except: ["live-session:greeting-practice", "live-session:ordering-drink"],
    });
    expect(Object.values(outcomes).every((outcome) => outcome === "done")).toBe(true);
    const before = await json(await request("/api/bookings/week", { cookie: siti.cookie }));
    expect(before.timeZone).toBe("Europe/London");
    expect(before.waiting.find((entry) => entry.learner.id === waiting.id)).toMatchObject({
      learner: { name: "Nur Tan" },
      chapterId: "chapter-1",
      dayId: "day-1",
      dayTitle: "Day 1: Arrival and greetings",
    });

    clock = new Date("2026-03-22T12:00:00.000Z");
    expect((await book(waiting.cookie, siti.id, "2026-03-23T09:00:00.000Z")).status).toBe(201);
    const after = await json(await request("/api/bookings/week", { cookie: siti.cookie }));
    expect(after.waiting.find((entry) => entry.learner.id === waiting.id)).toBeUndefined();
    expect(after.sessions.map((session) => [session.learner.name, session.startsAt])).toEqual([
      ["Nur Tan", "2026-03-23T09:00:00.000Z"],
    ]);
    const learner = await account();
    expect((await request("/api/bookings/week", { cookie: learner.cookie })).status).toBe(403);
  });
});

describe("Export My Data", () => {
  it("holds a tutor's hours and the sessions a learner booked", async () => {
    const siti = await tutor();
    const alex = await account();
    const { booking: session } = await json(await book(alex.cookie, siti.id, "2026-03-30T08:00:00.000Z"));
    // Export asks for the password again within 10 minutes of signing in: these sessions are fresh.
    const read = async (cookie: string) =>
      (await (await t.request("/api/account/export", { cookie })).json()) as AccountExport;
    const learnerExport = await read(alex.cookie);
    expect(learnerExport.tutorHours).toBeNull();
    expect(learnerExport.bookings).toEqual([
      expect.objectContaining({ id: session.id, role: "learner", status: "confirmed", startsAt: session.startsAt }),
    ]);
    const tutorExport = await read(siti.cookie);
    expect(tutorExport.tutorHours).toMatchObject({ timeZone: "Europe/London", weekly: LONDON_MONDAYS.weekly });
    expect(tutorExport.bookings).toEqual([expect.objectContaining({ id: session.id, role: "tutor" })]);
  });
});
