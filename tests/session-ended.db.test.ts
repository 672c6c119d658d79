import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createNotifications } from "#server/db/notifications";
import { eventDelivery, eventOutbox, notice, user } from "#server/db/schema";
import { callsEvents, type SessionRecord } from "#server/modules/calls/calls.contract";
import type { ReviewService } from "#server/modules/review/review.service";
import { bookedSession } from "./booked-session";
import { createTestApp } from "./test-app";

/**
 * The end of a session as an event (docs/decisions/075-events.md): the calls module records
 * calls.session-ended in the end's transaction, and the speaking module's handler tells the learner
 * (a notice, and an email when their notifications are on) in a transaction of its own.
 */
const t = await createTestApp();

/**
 * Another app on this database whose dispatcher is never woken (its LISTEN connection is closed):
 * events are delivered here by t's `deliverAll` alone, so a test reads what it delivered.
 */
async function quietApp(review: ReviewService) {
  const deaf = createNotifications(process.env.TEST_DATABASE_URL!, t.logger);
  await deaf.close();
  return t.requestTo(t.appWith({ review, notifications: deaf }));
}

const GREETINGS = "live-session:greeting-practice";

const rate = (bookingId: string, cookie: string, lineId: string, rating: number) =>
  t.request(`/api/calls/${bookingId}/ratings`, {
    method: "PUT",
    cookie,
    json: { taskId: GREETINGS, lineId, rating },
  });
const endPath = (bookingId: string) => `/api/calls/${bookingId}/end`;

/** The calls.session-ended events recorded for this booking: their payloads. */
async function endsOf(bookingId: string) {
  const rows = await t.db
    .select({ payload: eventOutbox.payload })
    .from(eventOutbox)
    .where(
      and(
        eq(eventOutbox.name, callsEvents.sessionEnded.name),
        sql`${eventOutbox.payload}->>'bookingId' = ${bookingId}`,
      ),
    );
  return rows.map((row) => row.payload);
}

const noticesOf = (userId: string) =>
  t.db.select({ kind: notice.kind, dayId: notice.dayId }).from(notice).where(eq(notice.userId, userId));
/** What the learner was told by email of their tutor (their sign-up's confirmation aside). */
const tutorMailTo = async (email: string) =>
  (await t.outbox()).filter((mail) => mail.to === email && mail.subject.startsWith("Your tutor"));

describe("the session's end, as an event", () => {
  it("is recorded with the end's commit, ids and flags only: an end that rolls back records nothing and tells nobody", async () => {
    const { bookingId, learner, tutor } = await session();
    expect((await rate(bookingId, tutor.cookie, "greeting-ask", 1)).status).toBe(200);

    // The pin fails after its write: the end's transaction rolls back, with its event.
    const review = t.modules.review.service;
    const failingPin: ReviewService = {
      ...review,
      async pin(...args) {
        await review.pin(...args);
        throw new Error("the pin failed after its write");
      },
    };
    const failed = await (await quietApp(failingPin))(endPath(bookingId), { method: "POST", cookie: tutor.cookie });
    expect(failed.status).toBe(500);
    expect(await endsOf(bookingId)).toEqual([]);
    await t.modules.events.deliverAll();
    expect(await noticesOf(learner.id)).toEqual([]);
    expect(await tutorMailTo(learner.email)).toEqual([]);

    // Ended for real: one event, naming the session and saying what the learner will find.
    const ended = await t.request(endPath(bookingId), { method: "POST", cookie: tutor.cookie });
    expect(((await ended.json()) as SessionRecord).endedAt).toEqual(expect.any(String));
    expect(await endsOf(bookingId)).toEqual([
      {
        bookingId,
        learnerId: learner.id,
        staffId: tutor.id,
        chapterId: "chapter-1",
        dayId: "day-1",
        notesLeft: false,
        linesPinned: true,
      },
    ]);
    await t.modules.events.deliverAll();
    expect(await noticesOf(learner.id)).toEqual([{ kind: "session-rated", dayId: "day-1" }]);
    const [mail, ...more] = await tutorMailTo(learner.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe("Your tutor has rated your Day 1 session");
    expect(mail!.text).toContain("Lines that need more work are waiting in your review.");
    expect(mail!.text).not.toContain("left you notes");
    expect(mail!.text).toContain("/chapter-1/day-1/live-session");
  });

  it("gives a learner whose emails are off the notice alone", async () => {
    const { bookingId, learner, tutor } = await session();
    await t.db.update(user).set({ emailNotifications: false }).where(eq(user.id, learner.id));
    expect((await t.request(endPath(bookingId), { method: "POST", cookie: tutor.cookie })).status).toBe(200);
    await t.modules.events.deliverAll();
    expect(await noticesOf(learner.id)).toEqual([{ kind: "session-rated", dayId: "day-1" }]);
    expect(await tutorMailTo(learner.email)).toEqual([]);
  });

  it("is handled, telling nobody, when the learner's account went before it was delivered", async () => {
    const gone = {
      bookingId: crypto.randomUUID(),
      learnerId: "an-account-since-deleted",
      staffId: "a-tutor",
      chapterId: "chapter-1",
      dayId: "day-1",
      notesLeft: true,
      linesPinned: false,
    };
    await t.db.transaction((tx) => t.modules.events.emit(tx, callsEvents.sessionEnded, gone));
    await t.modules.events.deliverAll();
    const [delivery] = await t.db
      .select({ deliveredAt: eventDelivery.deliveredAt, lastError: eventDelivery.lastError })
      .from(eventDelivery)
      .innerJoin(eventOutbox, eq(eventOutbox.id, eventDelivery.eventId))
      .where(sql`${eventOutbox.payload}->>'bookingId' = ${gone.bookingId}`);
    expect(delivery).toEqual({ deliveredAt: expect.any(Date), lastError: null });
    expect(await noticesOf(gone.learnerId)).toEqual([]);
  });
});

function session() {
  return bookedSession(t);
}
