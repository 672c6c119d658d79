import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { pageTasks } from "#course/course";
import type { Role } from "#course/roles";
import { createAuth } from "#server/auth/auth";
import { connectDatabase } from "#server/db/client";
import type { Notifications } from "#server/db/notifications";
import { speakingSubmission, taskProgress, user } from "#server/db/schema";
import { EVENTS_CHANNEL } from "#server/events/event-rows";
import type { SpeakingQueue } from "#server/modules/speaking/speaking.contract";
import { statementCounter } from "#tests/statement-count";
import { createTestApp } from "#tests/test-app";
import type { BookingView, DaySlots, TutorHoursInput, TutorWeek } from "./bookings.contract";

/**
 * How many SQL statements the busiest reads and writes of sessions send (decision 073): booking a
 * slot at most BOOKING_STATEMENTS_MAX, and the slots and the tutors' queue the same number whatever
 * the count of tutors and learners (no statement per person). The app under count runs on a pool of
 * its own, so only its statements are counted; the accounts are made through the test app.
 */
const t = await createTestApp();
const BOOKING_STATEMENTS_MAX = 10;
/** Friday 20 March 2026: the tutors' Mondays are open from the 23rd. */
const now = () => new Date("2026-03-20T00:00:00.000Z");
const counted = connectDatabase(t.env.DATABASE_URL!, t.logger, { max: 5 });
afterAll(() => counted.close());
const counter = statementCounter(counted.pool);
const auth = createAuth({ db: counted.db, env: t.env, mailer: t.mailer, logger: t.logger });
// The app under count is not woken by events: their handlers run after the request, on the test app's connections.
const notifications: Notifications = {
  ...t.notifications,
  subscribe: (channel, handler) =>
    channel === EVENTS_CHANNEL ? Promise.resolve(() => {}) : t.notifications.subscribe(channel, handler),
};
const request = t.requestTo(t.appWith({ db: counted.db, pool: counted.pool, auth, now, notifications }));

const DAY_1 = "/api/bookings/days/chapter-1/day-1";

async function account(role: Role = "Student", firstName = "Alex") {
  const { user: details, cookie } = await t.signedInUser({ firstName, lastName: "Tan" });
  const [row] = await t.db.update(user).set({ role }).where(eq(user.email, details.email)).returning({ id: user.id });
  return { id: row!.id, email: details.email, cookie };
}

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

async function tutorWithHours(firstName = "Siti") {
  const tutor = await account("Tutor", firstName);
  const saved = await request("/api/bookings/hours", { method: "PUT", cookie: tutor.cookie, json: MONDAYS });
  expect(saved.status).toBe(200);
  return tutor;
}

/** The statements one request sends, and its answer. */
async function statementsOf(path: string, init: Parameters<typeof request>[1]) {
  const { result, statements } = await counter.during(async () => {
    const response = await request(path, init);
    return { status: response.status, body: await response.json() };
  });
  return { ...result, statements };
}

describe("booking a slot", () => {
  it(`takes at most ${BOOKING_STATEMENTS_MAX} statements, the event that has both sides' invites written included`, async () => {
    const siti = await tutorWithHours();
    const alex = await account();
    const before = (await t.outbox()).length;
    const booked = await statementsOf(DAY_1, {
      method: "POST",
      cookie: alex.cookie,
      json: { tutorId: siti.id, startsAt: "2026-03-23T09:00:00.000Z" },
    });
    expect(booked.status).toBe(201);
    expect((booked.body as { booking: BookingView }).booking).toMatchObject({
      tutor: { id: siti.id, name: "Siti Tan" },
      learner: { id: alex.id, name: "Alex Tan" },
      changes: [{ kind: "booked", by: "You" }],
    });
    expect(
      (await t.outbox())
        .slice(before)
        .map((mail) => mail.to)
        .sort(),
    ).toEqual([alex.email, siti.email].sort());
    expect(booked.statements.length, booked.statements.join("\n")).toBeLessThanOrEqual(BOOKING_STATEMENTS_MAX);
  });
});

describe("reads that list people", () => {
  it("show the open slots of every tutor in the same number of statements for one tutor as for eight", async () => {
    await tutorWithHours("Aminah");
    const learner = await account();
    const slots = () => statementsOf(`${DAY_1}/slots`, { cookie: learner.cookie });
    const few = await slots();
    for (let tutor = 0; tutor < 7; tutor += 1) await tutorWithHours(`Tutor${tutor}`);
    const many = await slots();
    expect((many.body as DaySlots).tutors.length).toBe((few.body as DaySlots).tutors.length + 7);
    expect(many.statements.length, many.statements.join("\n")).toBe(few.statements.length);
  });

  it("show a tutor the speaking queue in the same number of statements for one learner as for eight", async () => {
    const tutor = await account("Tutor", "Farah");
    const submitFrom = async (count: number) => {
      for (let learner = 0; learner < count; learner += 1) {
        const { id } = await account("Student", `Learner${learner}`);
        await t.db.insert(speakingSubmission).values({ userId: id, chapterId: "chapter-1", dayId: "day-1" });
      }
    };
    const queue = () => statementsOf("/api/speaking/queue", { cookie: tutor.cookie });
    await submitFrom(1);
    const few = await queue();
    await submitFrom(7);
    const many = await queue();
    expect((many.body as SpeakingQueue).waiting.length).toBe((few.body as SpeakingQueue).waiting.length + 7);
    expect((many.body as SpeakingQueue).waiting.map((entry) => entry.learner.name)).toContain("Learner6 Tan");
    expect(many.statements.length, many.statements.join("\n")).toBe(few.statements.length);
  });

  it("show a tutor their week and the learners waiting for a session in the same number of statements for one learner as for eight", async () => {
    const tutor = await tutorWithHours("Zainab");
    const day = t.course.find((chapter) => chapter.id === "chapter-1")!.days.find((each) => each.id === "day-1")!;
    const live = new Set(pageTasks(day, "liveSession").map((task) => task.id));
    const selfStudy = day.tasks.filter((task) => !live.has(task.id)).map((task) => task.id);
    const finishFrom = async (count: number) => {
      for (let learner = 0; learner < count; learner += 1) {
        const { id } = await account("Student", `Waiting${learner}`);
        await t.db.insert(taskProgress).values(
          selfStudy.map((taskId) => ({
            userId: id,
            chapterId: "chapter-1",
            sectionId: "day-1",
            taskId,
            status: "completed" as const,
          })),
        );
      }
    };
    const week = () => statementsOf("/api/bookings/week", { cookie: tutor.cookie });
    await finishFrom(1);
    const few = await week();
    await finishFrom(7);
    const many = await week();
    expect((many.body as TutorWeek).waiting.length).toBe((few.body as TutorWeek).waiting.length + 7);
    expect(many.statements.length, many.statements.join("\n")).toBe(few.statements.length);
  });
});
