import { count, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { coursePhrases, REVIEW_SKILLS } from "#course/review-rules";
import type { Role } from "#course/roles";
import { reviewCard, tutorFeedback, user as userTable } from "#server/db/schema";
import type { ReviewService } from "#server/modules/review/review.service";
import { createTestApp, ORIGIN } from "#tests/test-app";
import { FEEDBACK_LIST_LIMIT } from "./feedback.service";

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
