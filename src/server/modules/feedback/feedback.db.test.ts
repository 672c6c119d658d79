import { randomUUID } from "node:crypto";
import { count, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { coursePhrases, REVIEW_SKILLS } from "#course/review-rules";
import { type Role, STUDENTS_ONLY } from "#course/roles";
import { booking, reviewCard, tutorFeedback, user as userTable } from "#server/db/schema";
import type { ReviewService } from "#server/modules/review/review.service";
import { createTestApp, ORIGIN } from "#tests/test-app";
import { FEEDBACK_LIST_LIMIT, NOT_YOUR_FEEDBACK } from "./feedback.service";

const t = await createTestApp();

async function signedInAs(role: Role, overrides: { firstName?: string; lastName?: string } = {}) {
  const session = await t.signedInUser(overrides);
  await t.db.update(userTable).set({ role }).where(eq(userTable.email, session.user.email));
  const [row] = await t.db.select().from(userTable).where(eq(userTable.email, session.user.email));
  return { ...session, id: row!.id };
}

type Session = Awaited<ReturnType<typeof signedInAs>>;

const submit = (cookie: string | undefined, body: unknown) =>
  t.request("/api/feedback", { method: "POST", cookie, json: body });

const received = async (cookie: string) => (await (await t.request("/api/feedback", { cookie })).json()).feedback;

async function feedbackCount() {
  const [row] = await t.db.select({ n: count() }).from(tutorFeedback);
  return row!.n;
}

let tutor: Session;
let admin: Session;
let learner: Session;

beforeAll(async () => {
  tutor = await signedInAs("Tutor", { firstName: "Nurul", lastName: "Huda" });
  admin = await signedInAs("Admin", { firstName: "Farid", lastName: "Ismail" });
  learner = await signedInAs("Student");
});

const dayOne = (studentId: string, feedback: string) => ({
  studentId,
  chapterId: "chapter-1",
  dayId: "day-1",
  feedback,
});

describe("POST /api/feedback", () => {
  it("stores trimmed feedback for the chosen learner, from the signed-in tutor, and answers it with 201", async () => {
    const student = await signedInAs("Student");
    const response = await submit(tutor.cookie, dayOne(student.id, "  Sebutan anda sangat bagus!\n"));
    expect(response.status).toBe(201);
    const { feedback } = await response.json();
    expect(feedback).toEqual({
      id: expect.any(String),
      chapterId: "chapter-1",
      dayId: "day-1",
      feedback: "Sebutan anda sangat bagus!",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      correctedAt: null,
      bookingId: null,
      tutorName: "Nurul Huda",
    });
    const rows = await t.db.select().from(tutorFeedback).where(eq(tutorFeedback.id, feedback.id));
    expect(rows).toEqual([
      expect.objectContaining({
        studentId: student.id,
        tutorId: tutor.id,
        chapterId: "chapter-1",
        dayId: "day-1",
        feedback: "Sebutan anda sangat bagus!",
      }),
    ]);
  });

  it("lets an Admin leave feedback too, named by their nickname when they have one", async () => {
    await t.db.update(userTable).set({ nickname: "Cikgu Farid" }).where(eq(userTable.id, admin.id));
    const response = await submit(admin.cookie, { ...dayOne(learner.id, "Teruskan!"), dayId: "day-2" });
    expect(response.status).toBe(201);
    expect((await response.json()).feedback).toMatchObject({ dayId: "day-2", tutorName: "Cikgu Farid" });
    await t.db.update(userTable).set({ nickname: null }).where(eq(userTable.id, admin.id));
  });

  it.each([
    ["empty", ""],
    ["only spaces and line breaks", "   \n\t  "],
    ["missing", undefined],
  ])('refuses feedback that is %s with "Feedback cannot be empty"', async (_label, text) => {
    const before = await feedbackCount();
    const response = await submit(tutor.cookie, {
      studentId: learner.id,
      chapterId: "chapter-1",
      dayId: "day-1",
      feedback: text,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "BAD_REQUEST",
        message: "Feedback cannot be empty",
        issues: [{ path: "feedback", message: "Feedback cannot be empty" }],
      },
    });
    expect(await feedbackCount()).toBe(before);
  });

  it("takes at most 4000 characters, counted after trimming", async () => {
    const before = await feedbackCount();
    const tooLong = await submit(tutor.cookie, dayOne(learner.id, "a".repeat(4001)));
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).error.message).toBe("Feedback must be at most 4000 characters.");
    expect(await feedbackCount()).toBe(before);
    expect((await submit(tutor.cookie, dayOne(learner.id, ` ${"a".repeat(4000)} `))).status).toBe(201);
  });

  it("refuses a body over the JSON limit with 413, writing nothing", async () => {
    const before = await feedbackCount();
    const response = await submit(tutor.cookie, dayOne(learner.id, "a".repeat(100_000)));
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await feedbackCount()).toBe(before);
  });

  it("answers 404 for an unknown student and writes nothing", async () => {
    const before = await feedbackCount();
    const response = await submit(tutor.cookie, dayOne("no-such-user", "Bagus."));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: "There is no such user." } });
    expect(await feedbackCount()).toBe(before);
  });

  it.each([
    [{ chapterId: "chapter-9", dayId: "day-1" }, 'There is no chapter "chapter-9".'],
    [{ chapterId: "chapter-1", dayId: "day-6" }, '"chapter-1" has no day "day-6".'],
  ])("refuses an unknown chapter or day (%j) with a 400 naming it", async (place, message) => {
    const before = await feedbackCount();
    const response = await submit(tutor.cookie, { ...dayOne(learner.id, "Bagus."), ...place });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "BAD_REQUEST", message } });
    expect(await feedbackCount()).toBe(before);
  });

  it.each([
    ["a tutor id", { tutorId: "someone-else" }],
    ["a created date", { createdAt: "2020-01-01T00:00:00Z" }],
  ])("refuses a body that also names %s: the tutor is the signed-in user", async (_label, extra) => {
    const before = await feedbackCount();
    const response = await submit(tutor.cookie, { ...dayOne(learner.id, "Bagus."), ...extra });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("BAD_REQUEST");
    expect(await feedbackCount()).toBe(before);
  });

  it.each([
    [
      "no student",
      { chapterId: "chapter-1", dayId: "day-1", feedback: "Bagus." },
      "studentId",
      "Student id is required.",
    ],
    ["a number for the day", { ...dayOne("x", "Bagus."), dayId: 1 }, "dayId", "Day id must be text."],
  ])("refuses a body with %s", async (_label, body, path, message) => {
    const response = await submit(tutor.cookie, body);
    expect(response.status).toBe(400);
    expect((await response.json()).error.issues).toEqual([{ path, message }]);
  });

  it("refuses learners, even about themselves, and anonymous visitors, writing nothing", async () => {
    const before = await feedbackCount();
    expect((await submit(learner.cookie, dayOne(learner.id, "Saya hebat!"))).status).toBe(403);
    const other = await signedInAs("Student");
    expect((await submit(learner.cookie, dayOne(other.id, "Bagus."))).status).toBe(403);
    expect((await submit(undefined, dayOne(learner.id, "Bagus."))).status).toBe(401);
    expect(await feedbackCount()).toBe(before);
  });
});

describe("GET /api/feedback", () => {
  it("gives a learner the feedback they received, newest first; another learner sees none of it", async () => {
    const student = await signedInAs("Student");
    const other = await signedInAs("Student");
    await submit(tutor.cookie, dayOne(student.id, "Pertama."));
    await submit(admin.cookie, { ...dayOne(student.id, "Kedua."), dayId: "day-2" });
    await submit(tutor.cookie, dayOne(other.id, "Untuk orang lain."));

    const mine = await received(student.cookie);
    expect(mine).toEqual([
      {
        id: expect.any(String),
        chapterId: "chapter-1",
        dayId: "day-2",
        feedback: "Kedua.",
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        correctedAt: null,
        bookingId: null,
        tutorName: "Farid Ismail",
      },
      expect.objectContaining({ dayId: "day-1", feedback: "Pertama.", tutorName: "Nurul Huda" }),
    ]);
    expect((await received(other.cookie)).map((item: { feedback: string }) => item.feedback)).toEqual([
      "Untuk orang lain.",
    ]);
    // The tutor who wrote it receives nothing themself.
    expect(await received(tutor.cookie)).toEqual([]);
  });

  it("needs a session", async () => {
    const response = await t.request("/api/feedback");
    expect(response.status).toBe(401);
  });

  it("keeps the feedback when the tutor's account is gone, without a name", async () => {
    const student = await signedInAs("Student");
    const leaving = await signedInAs("Tutor", { firstName: "Hadi", lastName: "Osman" });
    await submit(leaving.cookie, dayOne(student.id, "Selamat maju jaya."));
    await t.db.delete(userTable).where(eq(userTable.id, leaving.id));
    expect(await received(student.cookie)).toEqual([
      expect.objectContaining({ feedback: "Selamat maju jaya.", tutorName: null }),
    ]);
  });

  it(`answers the newest ${FEEDBACK_LIST_LIMIT}`, async () => {
    const student = await signedInAs("Student");
    await t.db.insert(tutorFeedback).values(
      Array.from({ length: FEEDBACK_LIST_LIMIT + 5 }, (_, n) => ({
        studentId: student.id,
        tutorId: tutor.id,
        chapterId: "chapter-1",
        dayId: "day-1",
        feedback: `Note ${n}`,
        createdAt: sql`now() - make_interval(mins => ${1000 - n})`,
      })),
    );
    const list = await received(student.cookie);
    expect(list).toHaveLength(FEEDBACK_LIST_LIMIT);
    expect(list[0].feedback).toBe(`Note ${FEEDBACK_LIST_LIMIT + 4}`);
    expect(list.at(-1).feedback).toBe("Note 5");
  });
});

describe("a note with a pin", () => {
  const phrase = coursePhrases(t.course).find((each) => each.chapterId === "chapter-1" && each.dayId === "day-1")!;
  const withPin = (studentId: string) => ({ ...dayOne(studentId, "Practise this one."), pinPhraseId: phrase.id });
  const notesOf = (studentId: string) =>
    t.db.select().from(tutorFeedback).where(eq(tutorFeedback.studentId, studentId));
  const pinnedCardsOf = (studentId: string) => t.db.select().from(reviewCard).where(eq(reviewCard.userId, studentId));

  it("stores the note and its pin in one transaction: a pin that fails leaves neither", async () => {
    const student = await signedInAs("Student");
    const review = t.modules.review.service;
    // The one failure injected: the pin writes the phrase's cards in the note's transaction, then fails.
    const failingPin: ReviewService = {
      ...review,
      async pin(staff, learnerId, target, q) {
        await review.pin(staff, learnerId, target, q);
        throw new Error("the pin failed after its write");
      },
    };
    const app = t.appWith({ review: failingPin });
    const failed = await app.request("/api/feedback", {
      method: "POST",
      headers: { cookie: tutor.cookie, origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify(withPin(student.id)),
    });
    expect(failed.status).toBe(500);
    expect(await notesOf(student.id)).toEqual([]);
    expect(await pinnedCardsOf(student.id)).toEqual([]);

    // The same note with a pin that works: both are stored.
    expect((await submit(tutor.cookie, withPin(student.id))).status).toBe(201);
    expect(await notesOf(student.id)).toHaveLength(1);
    const cards = await pinnedCardsOf(student.id);
    expect(cards).toHaveLength(REVIEW_SKILLS.length);
    expect(cards.every((card) => card.phraseId === phrase.id && card.pinnedBy === tutor.id)).toBe(true);
  });
});

describe("a learner's record, as staff keep it", () => {
  const recordOf = (cookie: string | undefined, studentId: string) =>
    t.request(`/api/feedback/learners/${encodeURIComponent(studentId)}`, { cookie });
  const correct = (cookie: string | undefined, id: string, body: unknown) =>
    t.request(`/api/feedback/${encodeURIComponent(id)}`, { method: "PATCH", cookie, json: body });
  const withdraw = (cookie: string | undefined, id: string) =>
    t.request(`/api/feedback/${encodeURIComponent(id)}`, { method: "DELETE", cookie });
  const stored = async (id: string) => (await t.db.select().from(tutorFeedback).where(eq(tutorFeedback.id, id)))[0];

  /** A note from `from` to `student` on day 1, sent through the API: its id. */
  async function sent(from: Session, studentId: string, text: string, dayId = "day-1") {
    const response = await submit(from.cookie, { ...dayOne(studentId, text), dayId });
    expect(response.status).toBe(201);
    return (await response.json()).feedback.id as string;
  }

  it("lists every note the learner received, newest first, saying which the viewer may change", async () => {
    const student = await signedInAs("Student");
    const other = await signedInAs("Student");
    const first = await sent(tutor, student.id, "Pertama.");
    const second = await sent(admin, student.id, "Kedua.", "day-2");
    await sent(tutor, other.id, "Untuk orang lain.");

    const response = await recordOf(tutor.cookie, student.id);
    expect(response.status).toBe(200);
    expect((await response.json()).feedback).toEqual([
      {
        id: second,
        chapterId: "chapter-1",
        dayId: "day-2",
        feedback: "Kedua.",
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        correctedAt: null,
        bookingId: null,
        tutorName: "Farid Ismail",
        mine: false,
      },
      expect.objectContaining({ id: first, feedback: "Pertama.", tutorName: "Nurul Huda", mine: true }),
    ]);
    // An Admin may change every note.
    const asAdmin = (await (await recordOf(admin.cookie, student.id)).json()).feedback;
    expect(asAdmin.map((note: { mine: boolean }) => note.mine)).toEqual([true, true]);
    // Another tutor may read the record, and change none of it.
    const otherTutor = await signedInAs("Tutor");
    const asOther = (await (await recordOf(otherTutor.cookie, student.id)).json()).feedback;
    expect(asOther.map((note: { id: string; mine: boolean }) => [note.id, note.mine])).toEqual([
      [second, false],
      [first, false],
    ]);
    expect((await (await recordOf(tutor.cookie, (await signedInAs("Student")).id)).json()).feedback).toEqual([]);
  });

  it("answers 404 for an unknown learner, and 403 to a tutor asking for a member of staff's", async () => {
    const unknown = await recordOf(tutor.cookie, "no-such-user");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: { code: "NOT_FOUND", message: "There is no such user." } });
    const staff = await recordOf(tutor.cookie, admin.id);
    expect(staff.status).toBe(403);
    expect((await staff.json()).error.message).toBe(STUDENTS_ONLY);
    expect((await recordOf(learner.cookie, learner.id)).status).toBe(403);
  });

  it("corrects a note: its text changes, it is marked corrected, and its learner reads the correction", async () => {
    const student = await signedInAs("Student");
    const older = await sent(tutor, student.id, "Sebutan anda bagus.");
    const newer = await sent(tutor, student.id, "Cuba lagi esok.", "day-2");
    const before = await stored(older);

    const response = await correct(tutor.cookie, older, { feedback: "  Sebutan anda sangat bagus!\n" });
    expect(response.status).toBe(200);
    const { feedback } = await response.json();
    expect(feedback).toEqual({
      id: older,
      chapterId: "chapter-1",
      dayId: "day-1",
      feedback: "Sebutan anda sangat bagus!",
      createdAt: before!.createdAt.toISOString(),
      correctedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      bookingId: null,
      tutorName: "Nurul Huda",
      mine: true,
    });
    const after = await stored(older);
    expect(after).toMatchObject({ feedback: "Sebutan anda sangat bagus!", createdAt: before!.createdAt });
    expect(after!.correctedAt!.getTime()).toBeGreaterThanOrEqual(before!.createdAt.getTime());

    // Still in the order it was sent: a correction does not make a note new.
    const mine = await received(student.cookie);
    expect(mine.map((note: { id: string }) => note.id)).toEqual([newer, older]);
    expect(mine[1]).toMatchObject({ feedback: "Sebutan anda sangat bagus!", correctedAt: feedback.correctedAt });
    expect(mine[0]).toMatchObject({ feedback: "Cuba lagi esok.", correctedAt: null });
  });

  it("leaves a note as it was when the correction is the same text", async () => {
    const student = await signedInAs("Student");
    const id = await sent(tutor, student.id, "Bagus.");
    const response = await correct(tutor.cookie, id, { feedback: " Bagus. " });
    expect(response.status).toBe(200);
    expect((await response.json()).feedback).toMatchObject({ feedback: "Bagus.", correctedAt: null });
    expect((await stored(id))!.correctedAt).toBeNull();
  });

  it("withdraws a note: it is gone, and its learner no longer sees it", async () => {
    const student = await signedInAs("Student");
    const kept = await sent(tutor, student.id, "Teruskan!");
    const id = await sent(tutor, student.id, "Salah orang.", "day-2");

    const response = await withdraw(tutor.cookie, id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ withdrawn: id });
    expect(await stored(id)).toBeUndefined();
    expect((await received(student.cookie)).map((note: { id: string }) => note.id)).toEqual([kept]);
    expect((await (await recordOf(tutor.cookie, student.id)).json()).feedback).toHaveLength(1);
    // Withdrawn once: there is nothing left to withdraw or correct.
    expect((await withdraw(tutor.cookie, id)).status).toBe(404);
    expect((await correct(tutor.cookie, id, { feedback: "Lagi." })).status).toBe(404);
  });

  it("refuses another tutor with 403, changing nothing", async () => {
    const student = await signedInAs("Student");
    const id = await sent(tutor, student.id, "Sebutan anda bagus.");
    const before = await stored(id);
    const otherTutor = await signedInAs("Tutor");

    for (const response of [
      await correct(otherTutor.cookie, id, { feedback: "Bukan saya punya." }),
      await withdraw(otherTutor.cookie, id),
    ]) {
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ error: { code: "FORBIDDEN", message: NOT_YOUR_FEEDBACK } });
    }
    expect(await stored(id)).toEqual(before);
    expect((await received(student.cookie))[0]).toMatchObject({ feedback: "Sebutan anda bagus.", correctedAt: null });
  });

  it("refuses learners and visitors, changing nothing", async () => {
    const id = await sent(tutor, learner.id, "Untuk anda.");
    const before = await stored(id);
    expect((await correct(learner.cookie, id, { feedback: "Saya ubah." })).status).toBe(403);
    expect((await withdraw(learner.cookie, id)).status).toBe(403);
    expect((await correct(undefined, id, { feedback: "Saya ubah." })).status).toBe(401);
    expect((await withdraw(undefined, id)).status).toBe(401);
    expect(await stored(id)).toEqual(before);
  });

  it("lets an Admin correct and withdraw a tutor's note", async () => {
    const student = await signedInAs("Student");
    const id = await sent(tutor, student.id, "Bagus.");
    const corrected = await correct(admin.cookie, id, { feedback: "Bagus sekali." });
    expect(corrected.status).toBe(200);
    // The note stays the tutor's.
    expect((await corrected.json()).feedback).toMatchObject({ feedback: "Bagus sekali.", tutorName: "Nurul Huda" });
    expect(await stored(id)).toMatchObject({ feedback: "Bagus sekali.", tutorId: tutor.id });
    expect((await withdraw(admin.cookie, id)).status).toBe(200);
    expect(await received(student.cookie)).toEqual([]);
  });

  it("refuses the note's own tutor once its learner is a member of staff", async () => {
    const colleague = await signedInAs("Student");
    const id = await sent(tutor, colleague.id, "Bagus.");
    await t.db.update(userTable).set({ role: "Tutor" }).where(eq(userTable.id, colleague.id));
    const before = await stored(id);
    const response = await correct(tutor.cookie, id, { feedback: "Bagus sekali." });
    expect(response.status).toBe(403);
    expect((await response.json()).error.message).toBe(STUDENTS_ONLY);
    expect((await withdraw(tutor.cookie, id)).status).toBe(403);
    expect(await stored(id)).toEqual(before);
  });

  it.each([
    ["empty", { feedback: "" }, "Feedback cannot be empty"],
    ["only spaces and line breaks", { feedback: "  \n\t " }, "Feedback cannot be empty"],
    ["missing", {}, "Feedback cannot be empty"],
    ["not text", { feedback: 42 }, "Feedback must be text."],
    ["too long", { feedback: "a".repeat(4001) }, "Feedback must be at most 4000 characters."],
  ])("refuses a correction that is %s with 400, changing nothing", async (_label, body, message) => {
    const id = await sent(tutor, learner.id, "Asal.");
    const before = await stored(id);
    const response = await correct(tutor.cookie, id, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "BAD_REQUEST", message, issues: [{ path: "feedback", message }] },
    });
    expect(await stored(id)).toEqual(before);
  });

  it.each([
    ["the tutor", { tutorId: "someone-else" }],
    ["the learner", { studentId: "someone-else" }],
    ["the correction's date", { correctedAt: "2020-01-01T00:00:00Z" }],
  ])("refuses a correction that also names %s, changing nothing", async (_label, extra) => {
    const id = await sent(tutor, learner.id, "Asal.");
    const before = await stored(id);
    const response = await correct(tutor.cookie, id, { feedback: "Baru.", ...extra });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe("BAD_REQUEST");
    expect(await stored(id)).toEqual(before);
  });

  it.each([
    ["an id no note has", randomUUID()],
    ["an id that is not a UUID", "not-a-note"],
  ])("answers 404 for %s", async (_label, id) => {
    const before = await feedbackCount();
    for (const response of [await correct(tutor.cookie, id, { feedback: "Baru." }), await withdraw(admin.cookie, id)]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: "There is no such feedback." } });
    }
    expect(await feedbackCount()).toBe(before);
  });

  it("keeps the session a note came from when it is corrected", async () => {
    const student = await signedInAs("Student");
    const startsAt = new Date(Date.now() - 2 * 60 * 60_000);
    const [session] = await t.db
      .insert(booking)
      .values({
        inviteUid: randomUUID(),
        tutorId: tutor.id,
        learnerId: student.id,
        chapterId: "chapter-1",
        dayId: "day-1",
        startsAt,
        endsAt: new Date(startsAt.getTime() + 30 * 60_000),
        status: "confirmed",
      })
      .returning({ id: booking.id });
    const [note] = await t.db
      .insert(tutorFeedback)
      .values({
        studentId: student.id,
        tutorId: tutor.id,
        chapterId: "chapter-1",
        dayId: "day-1",
        feedback: "Notes from our session.",
        bookingId: session!.id,
      })
      .returning({ id: tutorFeedback.id });
    const response = await correct(tutor.cookie, note!.id, { feedback: "Notes from our session, tidied." });
    expect((await response.json()).feedback).toMatchObject({ bookingId: session!.id });
    expect(await received(student.cookie)).toEqual([
      expect.objectContaining({ feedback: "Notes from our session, tidied.", bookingId: session!.id }),
    ]);
  });
});
