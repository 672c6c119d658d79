import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { connectDatabase } from "#server/db/client";
import { booking, bookingChange, user } from "#server/db/schema";
import type { ErrorBody } from "#server/http/errors";
import { createTestApp } from "#tests/test-app";
import type { BookingView, TutorHoursInput } from "./bookings.contract";
import { BOOKING_LIMITS, HELD_BACK_NOTICE } from "./bookings.limits";

/**
 * Limits on changing sessions and on the mail they send (docs/decisions/063), with RATE_LIMIT on,
 * through HTTP into two instances on one database (each its own pool) on the same fake clock: the
 * counts are PostgreSQL's, so what one instance counted the other sees.
 */
const t = await createTestApp();
/** Friday 20 March 2026, 00:00 UTC: London is on GMT until Sunday 29 March. */
const now = () => new Date("2026-03-20T00:00:00.000Z");
const second = connectDatabase(t.env.DATABASE_URL!, t.logger, { max: 5 });
afterAll(() => second.close());
const one = t.requestTo(t.appWith({ now, rateLimit: true }));
const two = t.requestTo(t.appWith({ now, rateLimit: true, db: second.db, pool: second.pool }));

/** Mondays 09:00-17:00 in London: sixteen 30-minute sessions a Monday. */
const LONDON_MONDAYS: TutorHoursInput = {
  timeZone: "Europe/London",
  bio: "",
  languages: [],
  sessionMinutes: 30,
  noticeHours: 12,
  horizonDays: 28,
  weekly: [{ weekday: 1, ranges: [{ start: "09:00", end: "17:00" }] }],
  exceptions: [],
};
/** Monday 23 March's sessions in London (GMT), from 09:00: the nth. */
const monday = (n: number) => new Date(Date.parse("2026-03-23T09:00:00.000Z") + n * 30 * 60_000).toISOString();

async function account(role: "Student" | "Tutor", firstName: string) {
  const { user: details, cookie } = await t.signedInUser({ firstName, lastName: "Tan" });
  const [row] = await t.db.update(user).set({ role }).where(eq(user.email, details.email)).returning({ id: user.id });
  return { id: row!.id, email: details.email, cookie };
}

async function tutor() {
  const siti = await account("Tutor", "Siti");
  const saved = await one("/api/bookings/hours", { method: "PUT", cookie: siti.cookie, json: LONDON_MONDAYS });
  expect(saved.status).toBe(200);
  return siti;
}

const book = (send: typeof one, cookie: string, tutorId: string, startsAt: string) =>
  send("/api/bookings/days/chapter-1/day-1", { method: "POST", cookie, json: { tutorId, startsAt } });
const post = (send: typeof one, cookie: string, path: string, json: unknown) =>
  send(path, { method: "POST", cookie, json });
const bookingOf = async (response: Response) => ((await response.json()) as { booking: BookingView }).booking;
const errorOf = async (response: Response) => ((await response.json()) as ErrorBody).error;
/** The emails to this address about sessions (its sign-up's left out). */
const mailTo = async (address: string) =>
  (await t.outbox()).filter(
    (mail) => mail.to === address && /^(The session's page|Join the session room): /m.test(mail.text),
  );
const rowsOf = async (learnerId: string) =>
  (await t.db.select({ count: sql<number>`count(*)::int` }).from(booking).where(eq(booking.learnerId, learnerId)))[0]!
    .count;
const messagesOn = async (bookingId: string) =>
  (
    await t.db
      .select({ count: sql<number>`count(*)::int` })
      .from(bookingChange)
      .where(and(eq(bookingChange.bookingId, bookingId), eq(bookingChange.kind, "message")))
  )[0]!.count;

/** A 429 in the error shape, with this message and when to try again (Retry-After on a route's own limit). */
async function expectRefused(response: Response, message: RegExp) {
  expect(response.status).toBe(429);
  const error = await errorOf(response);
  expect(error.code).toBe("TOO_MANY_REQUESTS");
  expect(error.message).toMatch(message);
}

describe("booking and cancelling in a loop", () => {
  it("is refused at the eleventh booking in an hour, counted across both instances, booking and mailing nothing", async () => {
    const siti = await tutor();
    const alex = await account("Student", "Alex");
    const { max } = BOOKING_LIMITS.booksPerUser;
    for (let cycle = 0; cycle < max; cycle += 1) {
      const [there, back] = cycle % 2 === 0 ? [one, two] : [two, one];
      const made = await book(there, alex.cookie, siti.id, monday(0));
      expect(made.status, `cycle ${cycle + 1}`).toBe(201);
      const { id } = await bookingOf(made);
      expect((await post(back, alex.cookie, `/api/bookings/${id}/cancel`, {})).status).toBe(200);
    }
    const rows = await rowsOf(alex.id);
    const mails = (await mailTo(siti.email)).length;
    expect(mails).toBe(2 * max);

    const refused = await book(two, alex.cookie, siti.id, monday(0));
    await expectRefused(refused, /^Too many bookings in an hour\. Please try again in \d+ minutes?\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await rowsOf(alex.id)).toBe(rows);
    expect(await mailTo(siti.email)).toHaveLength(mails);
  });
});

describe("messages about sessions", () => {
  it("are refused past the hour's limit per sender, storing and mailing nothing", async () => {
    const siti = await tutor();
    const learners = [
      await account("Student", "Alex"),
      await account("Student", "Bea"),
      await account("Student", "Chong"),
    ];
    const ids: string[] = [];
    for (const [index, learner] of learners.entries()) {
      ids.push((await bookingOf(await book(one, learner.cookie, siti.id, monday(index)))).id);
    }
    const { max } = BOOKING_LIMITS.messagesPerUser;
    for (let sent = 0; sent < max; sent += 1) {
      const send = sent % 2 === 0 ? one : two;
      const written = await post(send, siti.cookie, `/api/bookings/${ids[sent % 3]}/messages`, {
        text: `Note ${sent}`,
      });
      expect(written.status).toBe(201);
    }
    const mails = (await t.outbox()).length;
    const refused = await post(one, siti.cookie, `/api/bookings/${ids[0]}/messages`, { text: "One more" });
    await expectRefused(refused, /^Too many messages about sessions in an hour\. Please try again in \d+ minutes?\.$/);
    expect((await Promise.all(ids.map(messagesOn))).reduce((a, b) => a + b)).toBe(max);
    expect(await t.outbox()).toHaveLength(mails);
  });
});

describe("mail about sessions from one person to another", () => {
  it("is capped per day: past it the change is refused with nothing sent, and other learners still reach the tutor", async () => {
    const siti = await tutor();
    const alex = await account("Student", "Alex");
    const { id } = await bookingOf(await book(one, alex.cookie, siti.id, monday(0)));
    // The booking's email was one; the messages make the day's allowance.
    const { max } = BOOKING_LIMITS.mailPerPair;
    for (let sent = 1; sent < max; sent += 1) {
      const send = sent % 2 === 0 ? one : two;
      expect((await post(send, alex.cookie, `/api/bookings/${id}/messages`, { text: `Line ${sent}` })).status).toBe(
        201,
      );
    }
    expect(await mailTo(siti.email)).toHaveLength(max);
    const refused = await post(two, alex.cookie, `/api/bookings/${id}/messages`, { text: "Are you there?" });
    await expectRefused(
      refused,
      /^You have sent Siti Tan too many emails about sessions today\. Please try again in 2[34] hours\.$/,
    );
    expect(await messagesOn(id)).toBe(max - 1);
    expect(await mailTo(siti.email)).toHaveLength(max);

    const bea = await account("Student", "Bea");
    expect((await book(one, bea.cookie, siti.id, monday(1))).status).toBe(201);
    expect((await mailTo(siti.email)).at(-1)!.subject).toMatch(/^Booked: /);
  });
});

describe("mail about sessions to one person from everyone", () => {
  // Two hundred requests reach the ceiling: seconds on a quiet machine, more than the default 20 s on a busy one.
  it("is held back past the day's ceiling (one notice first) while bookings still happen and mail the learners", {
    timeout: 120_000,
  }, async () => {
    const siti = await tutor();
    const perLearner = BOOKING_LIMITS.mailPerPair.max;
    const learners = BOOKING_LIMITS.mailPerRecipient.max / perLearner;
    // Each learner books a session and writes until their own allowance to Siti is spent.
    for (let index = 0; index < learners; index += 1) {
      const learner = await account("Student", `Learner${index}`);
      const send = index % 2 === 0 ? one : two;
      const { id } = await bookingOf(await book(send, learner.cookie, siti.id, monday(index)));
      for (let sent = 1; sent < perLearner; sent += 1) {
        expect((await post(send, learner.cookie, `/api/bookings/${id}/messages`, { text: "Hi" })).status).toBe(201);
      }
    }
    expect(await mailTo(siti.email)).toHaveLength(BOOKING_LIMITS.mailPerRecipient.max);

    const late = [await account("Student", "Dewi"), await account("Student", "Eko")];
    for (const [index, learner] of late.entries()) {
      const made = await book(index === 0 ? one : two, learner.cookie, siti.id, monday(learners + index));
      expect(made.status).toBe(201);
      expect(await rowsOf(learner.id)).toBe(1);
      const own = await mailTo(learner.email);
      expect(own.at(-1)!.subject).toMatch(/^Booked: /);
      expect(own.at(-1)!.calendar?.method).toBe("REQUEST");
    }
    const toSiti = await mailTo(siti.email);
    expect(toSiti).toHaveLength(BOOKING_LIMITS.mailPerRecipient.max + 1);
    expect(toSiti.at(-1)).toMatchObject({ subject: HELD_BACK_NOTICE.subject, calendar: undefined });
    expect(toSiti.at(-1)!.text).toContain(HELD_BACK_NOTICE.text);
  });
});

describe("a learner and a tutor arranging sessions as people do", () => {
  it("are never refused: book, message, propose, accept, decline, cancel and book again", async () => {
    const siti = await tutor();
    const alex = await account("Student", "Alex");
    const ok = async (response: Response) => {
      expect(response.status, await response.clone().text()).toBeLessThan(300);
      return bookingOf(response);
    };
    let session = await ok(await book(one, alex.cookie, siti.id, monday(0)));
    await ok(await post(two, alex.cookie, `/api/bookings/${session.id}/messages`, { text: "Hello Cikgu!" }));
    await ok(await post(one, siti.cookie, `/api/bookings/${session.id}/messages`, { text: "Selamat datang." }));
    await ok(await post(two, siti.cookie, `/api/bookings/${session.id}/propose`, { startsAt: monday(2) }));
    session = await ok(await post(one, alex.cookie, `/api/bookings/${session.id}/proposal`, { accept: true }));
    await ok(await post(two, siti.cookie, `/api/bookings/${session.id}/propose`, { startsAt: monday(4) }));
    await ok(await post(one, alex.cookie, `/api/bookings/${session.id}/proposal`, { accept: false }));
    await ok(await post(two, alex.cookie, `/api/bookings/${session.id}/messages`, { text: "Terima kasih." }));
    await ok(await post(one, alex.cookie, `/api/bookings/${session.id}/cancel`, { reason: "Sick." }));
    session = await ok(await book(two, alex.cookie, siti.id, monday(1)));
    await ok(await post(one, siti.cookie, `/api/bookings/${session.id}/cancel`, {}));
    await ok(await book(one, alex.cookie, siti.id, monday(3)));
  });
});
