import { count, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { type Chapter, findDay } from "#course/course";
import type { Role } from "#course/roles";
import { unlessUserVanished } from "#server/db/accounts";
import { dayCompletion, taskProgress, user as userTable } from "#server/db/schema";
import { HttpError } from "#server/http/errors";
import { allAnswered, completeDayAsLearner } from "#tests/complete-day";
import { createTestApp, ORIGIN } from "#tests/test-app";

const t = await createTestApp();

async function signedInAs(role: Role) {
  const session = await t.signedInUser();
  await t.db.update(userTable).set({ role }).where(eq(userTable.email, session.user.email));
  const [row] = await t.db.select().from(userTable).where(eq(userTable.email, session.user.email));
  return { ...session, id: row!.id };
}

type Session = Awaited<ReturnType<typeof signedInAs>>;

const progressPath = (userId: string) => `/api/users/${encodeURIComponent(userId)}/progress`;

function setTask(
  cookie: string | undefined,
  userId: string,
  [chapterId, dayId, taskId]: [string, string, string],
  body: unknown,
) {
  return t.request(`${progressPath(userId)}/${chapterId}/${dayId}/${taskId}`, { method: "PUT", cookie, json: body });
}

/** A user's stored rows, with updated_at at full (microsecond) precision. */
async function rowsOf(userId: string) {
  return t.db
    .select({
      dayId: taskProgress.sectionId,
      taskId: taskProgress.taskId,
      status: taskProgress.status,
      updatedAt: sql<string>`${taskProgress.updatedAt}::text`,
    })
    .from(taskProgress)
    .where(eq(taskProgress.userId, userId))
    .orderBy(taskProgress.chapterId, taskProgress.sectionId, taskProgress.taskId);
}

async function allRowCount() {
  const [row] = await t.db.select({ n: count() }).from(taskProgress);
  return row!.n;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const readSetting: [string, string, string] = ["chapter-1", "day-1", "story:read-setting"];
const dayTwoStory: [string, string, string] = ["chapter-1", "day-2", "story:read-story"];

let tutor: Session;
let admin: Session;

beforeAll(async () => {
  tutor = await signedInAs("Tutor");
  admin = await signedInAs("Admin");
});

describe("GET /api/users/:userId/progress", () => {
  it("gives staff any learner's progress, in the map GET /api/progress uses", async () => {
    const learner = await signedInAs("Student");
    await t.request("/api/progress/chapter-1/day-1/story:read-setting", {
      method: "PUT",
      cookie: learner.cookie,
      json: { status: "completed" },
    });
    const own = await (await t.request("/api/progress", { cookie: learner.cookie })).json();
    for (const staff of [tutor, admin]) {
      const response = await t.request(progressPath(learner.id), { cookie: staff.cookie });
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.json()).toEqual(own);
    }
    expect(own).toEqual({
      progress: { "chapter-1": { "day-1": { "story:read-setting": "completed" } } },
      completedDays: [],
    });
  });

  it("answers 404 for an unknown user", async () => {
    const response = await t.request(progressPath("no-such-user"), { cookie: tutor.cookie });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: "There is no such user." } });
  });

  it("refuses learners, even for their own id, and anonymous visitors", async () => {
    const learner = await signedInAs("Student");
    expect((await t.request(progressPath(learner.id), { cookie: learner.cookie })).status).toBe(403);
    expect((await t.request(progressPath(tutor.id), { cookie: learner.cookie })).status).toBe(403);
    expect((await t.request(progressPath(learner.id))).status).toBe(401);
  });
});

describe("PUT /api/users/:userId/progress/:chapterId/:dayId/:taskId", () => {
  it("sets each status for the learner, not for the tutor, and moves a completed task back", async () => {
    const learner = await signedInAs("Student");
    const statuses = [];
    for (const status of ["in-progress", "completed", "in-progress"]) {
      const response = await setTask(tutor.cookie, learner.id, readSetting, { status });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        progress: { "chapter-1": { "day-1": { "story:read-setting": status } } },
        completedDays: [],
      });
      statuses.push((await rowsOf(learner.id)).map((row) => row.status));
    }
    expect(statuses).toEqual([["in-progress"], ["completed"], ["in-progress"]]);
    expect(await rowsOf(tutor.id)).toEqual([]);
    expect(await (await t.request("/api/progress", { cookie: learner.cookie })).json()).toEqual({
      progress: { "chapter-1": { "day-1": { "story:read-setting": "in-progress" } } },
      completedDays: [],
    });
  });

  it("deletes the record for not-started, and answers the rest of the map", async () => {
    const learner = await signedInAs("Student");
    await setTask(admin.cookie, learner.id, readSetting, { status: "completed" });
    await setTask(admin.cookie, learner.id, ["chapter-1", "day-1", "story:read-dialog"], { status: "in-progress" });
    const response = await setTask(admin.cookie, learner.id, readSetting, { status: "not-started" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      progress: { "chapter-1": { "day-1": { "story:read-dialog": "in-progress" } } },
      completedDays: [],
    });
    expect((await rowsOf(learner.id)).map((row) => row.taskId)).toEqual(["story:read-dialog"]);

    // not-started for a task without a record is simply nothing to delete.
    const again = await setTask(admin.cookie, learner.id, readSetting, { status: "not-started" });
    expect(again.status).toBe(200);
    expect((await rowsOf(learner.id)).map((row) => row.taskId)).toEqual(["story:read-dialog"]);
  });

  it("writes nothing when the status is unchanged", async () => {
    const learner = await signedInAs("Student");
    await setTask(tutor.cookie, learner.id, readSetting, { status: "completed" });
    const before = await rowsOf(learner.id);
    await pause(20);
    expect((await setTask(tutor.cookie, learner.id, readSetting, { status: "completed" })).status).toBe(200);
    expect(await rowsOf(learner.id)).toEqual(before);
    await pause(20);
    await setTask(tutor.cookie, learner.id, readSetting, { status: "in-progress" });
    expect((await rowsOf(learner.id))[0]!.updatedAt).not.toBe(before[0]!.updatedAt);
  });

  it("bypasses day locking: day 2 for a learner with nothing on day 1, and chapter 2's day 6", async () => {
    const learner = await signedInAs("Student");
    const dayTwo = await setTask(tutor.cookie, learner.id, dayTwoStory, { status: "completed" });
    expect(dayTwo.status).toBe(200);
    const daySix = await setTask(tutor.cookie, learner.id, ["chapter-2", "day-6", "codebook:review-vocab"], {
      status: "in-progress",
    });
    expect(daySix.status).toBe(200);
    expect((await daySix.json()).progress).toEqual({
      "chapter-1": { "day-2": { "story:read-story": "completed" } },
      "chapter-2": { "day-6": { "codebook:review-vocab": "in-progress" } },
    });
    // The learner themself is still locked out of day 3, since day 1 is not complete.
    const own = await t.request("/api/progress/chapter-1/day-3/story:read-story", {
      method: "PUT",
      cookie: learner.cookie,
      json: { status: "in-progress" },
    });
    expect(own.status).toBe(409);
  });

  it.each([
    [["chapter-9", "day-1", "story:read-setting"], 'There is no chapter "chapter-9".'],
    [["chapter-1", "day-9", "story:read-setting"], '"chapter-1" has no day "day-9".'],
    [["chapter-1", "day-1", "story:foo"], 'Day 1 of chapter-1 has no task "story:foo".'],
    [["chapter-2", "day-10", "story:read-story"], 'Day 10 of chapter-2 has no task "story:read-story".'],
  ] as Array<[[string, string, string], string]>)(
    "refuses %j with the learner route's 400, writing nothing",
    async (target, message) => {
      const learner = await signedInAs("Student");
      const response = await setTask(tutor.cookie, learner.id, target, { status: "completed" });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code: "BAD_REQUEST", message } });
      expect(await rowsOf(learner.id)).toEqual([]);
    },
  );

  it.each([
    ["no status", {}, "Status is required."],
    ["an unknown status", { status: "done" }, 'Status must be "not-started", "in-progress" or "completed".'],
    ["a number", { status: 2 }, 'Status must be "not-started", "in-progress" or "completed".'],
  ])("refuses a body with %s", async (_label, body, message) => {
    const learner = await signedInAs("Student");
    const response = await setTask(tutor.cookie, learner.id, readSetting, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "BAD_REQUEST", message: "The request is not valid.", issues: [{ path: "status", message }] },
    });
    expect(await rowsOf(learner.id)).toEqual([]);
  });

  it("refuses a user id in the body: the learner is the one in the path", async () => {
    const learner = await signedInAs("Student");
    const response = await setTask(tutor.cookie, learner.id, readSetting, { status: "completed", userId: tutor.id });
    expect(response.status).toBe(400);
    expect(await rowsOf(learner.id)).toEqual([]);
    expect(await rowsOf(tutor.id)).toEqual([]);
  });

  it("answers 404 for an unknown user and writes nothing", async () => {
    const before = await allRowCount();
    const response = await setTask(tutor.cookie, "no-such-user", readSetting, { status: "completed" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: "There is no such user." } });
    expect(await allRowCount()).toBe(before);
  });

  it("answers 404, not 500, when the account is deleted between the check and the write", async () => {
    const write = () =>
      t.db.insert(taskProgress).values({
        userId: "deleted-meanwhile",
        chapterId: "chapter-1",
        sectionId: "day-1",
        taskId: "story:read-setting",
        status: "completed",
      });
    const error = await unlessUserVanished(write).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 404, message: "There is no such user." });
  });

  it("refuses a learner, even setting their own task, and writes nothing", async () => {
    const learner = await signedInAs("Student");
    const own = await setTask(learner.cookie, learner.id, dayTwoStory, { status: "completed" });
    expect(own.status).toBe(403);
    const other = await signedInAs("Student");
    expect((await setTask(learner.cookie, other.id, readSetting, { status: "completed" })).status).toBe(403);
    expect((await setTask(undefined, learner.id, readSetting, { status: "completed" })).status).toBe(401);
    expect(await rowsOf(learner.id)).toEqual([]);
    expect(await rowsOf(other.id)).toEqual([]);
  });
});

describe("DELETE /api/users/:userId/progress", () => {
  it("deletes every record of that user only, and says how many", async () => {
    const learner = await signedInAs("Student");
    const bystander = await signedInAs("Student");
    for (const target of [readSetting, dayTwoStory, ["chapter-2", "day-6", "codebook:review-vocab"]] as Array<
      [string, string, string]
    >) {
      await setTask(tutor.cookie, learner.id, target, { status: "completed" });
      await setTask(tutor.cookie, bystander.id, target, { status: "in-progress" });
    }
    const kept = await rowsOf(bystander.id);

    const response = await t.request(progressPath(learner.id), { method: "DELETE", cookie: tutor.cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: 3 });
    expect(await rowsOf(learner.id)).toEqual([]);
    expect(await rowsOf(bystander.id)).toEqual(kept);
    expect(await (await t.request("/api/progress", { cookie: learner.cookie })).json()).toEqual({
      progress: {},
      completedDays: [],
    });

    const again = await t.request(progressPath(learner.id), { method: "DELETE", cookie: admin.cookie });
    expect(await again.json()).toEqual({ deleted: 0 });
  });

  it("answers 404 for an unknown user", async () => {
    const response = await t.request(progressPath("no-such-user"), { method: "DELETE", cookie: tutor.cookie });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: "There is no such user." } });
  });

  it("refuses a learner, even for their own progress, and deletes nothing", async () => {
    const learner = await signedInAs("Student");
    await setTask(tutor.cookie, learner.id, readSetting, { status: "completed" });
    const before = await rowsOf(learner.id);
    expect((await t.request(progressPath(learner.id), { method: "DELETE", cookie: learner.cookie })).status).toBe(403);
    expect((await t.request(progressPath(learner.id), { method: "DELETE" })).status).toBe(401);
    expect(await rowsOf(learner.id)).toEqual(before);
  });
});

/** The days a user has completed once, as stored. */
async function completionsOf(userId: string) {
  const rows = await t.db
    .select({ chapterId: dayCompletion.chapterId, dayId: dayCompletion.dayId })
    .from(dayCompletion)
    .where(eq(dayCompletion.userId, userId))
    .orderBy(dayCompletion.chapterId, dayCompletion.dayId);
  return rows.map(({ chapterId, dayId }) => `${chapterId}/${dayId}`);
}

const dayOneTasks = () => findDay(t.course, "chapter-1", "day-1")!.day.tasks.map((task) => task.id);
const dayOne = { chapterId: "chapter-1", dayId: "day-1" };

/** A learner's own save of a day-2 task: 200 when day 2 is open to them, 409 when it is locked. */
async function dayTwoStatusFor(learner: Session, app = t.app) {
  const response = await app.request("/api/progress/chapter-1/day-2/story:read-story", {
    method: "PUT",
    headers: { cookie: learner.cookie, origin: ORIGIN, "content-type": "application/json" },
    body: JSON.stringify({ status: "in-progress" }),
  });
  return response.status;
}

/** A learner who completed every task of day 1 themself. */
async function learnerWhoFinishedDayOne() {
  const learner = await signedInAs("Student");
  const statuses = await completeDayAsLearner(t, learner.cookie, "chapter-1", "day-1");
  expect(statuses).toEqual(allAnswered(statuses));
  expect(await completionsOf(learner.id)).toEqual(["chapter-1/day-1"]);
  return learner;
}

describe("staff on staff: a Tutor acts on Students only, an Admin on anyone", () => {
  const refusal = { error: { code: "FORBIDDEN", message: "A tutor can act only on students' accounts." } };

  it.each([
    ["an Admin", "Admin"],
    ["another Tutor", "Tutor"],
  ] as const)("refuses a Tutor who reads, sets or resets %s's progress, and changes nothing", async (_label, role) => {
    const staff = await signedInAs(role);
    await setTask(admin.cookie, staff.id, readSetting, { status: "completed" });
    const before = await rowsOf(staff.id);
    expect(before).toHaveLength(1);

    const read = await t.request(progressPath(staff.id), { cookie: tutor.cookie });
    expect(read.status).toBe(403);
    expect(await read.json()).toEqual(refusal);
    for (const status of ["in-progress", "not-started"]) {
      const set = await setTask(tutor.cookie, staff.id, readSetting, { status });
      expect(set.status).toBe(403);
      expect(await set.json()).toEqual(refusal);
    }
    const reset = await t.request(progressPath(staff.id), { method: "DELETE", cookie: tutor.cookie });
    expect(reset.status).toBe(403);
    expect(await reset.json()).toEqual(refusal);
    expect(await rowsOf(staff.id)).toEqual(before);
  });

  it("lets an Admin read, set and reset a Tutor's progress", async () => {
    const other = await signedInAs("Tutor");
    expect((await setTask(admin.cookie, other.id, readSetting, { status: "completed" })).status).toBe(200);
    const read = await t.request(progressPath(other.id), { cookie: admin.cookie });
    expect(await read.json()).toMatchObject({
      progress: { "chapter-1": { "day-1": { "story:read-setting": "completed" } } },
    });
    const reset = await t.request(progressPath(other.id), { method: "DELETE", cookie: admin.cookie });
    expect(await reset.json()).toEqual({ deleted: 1 });
  });
});

describe("days completed once, under staff corrections (decision 030)", () => {
  it("shows staff the learner's completed days, as GET /api/progress does", async () => {
    const learner = await learnerWhoFinishedDayOne();
    const own = await (await t.request("/api/progress", { cookie: learner.cookie })).json();
    expect(own.completedDays).toEqual([dayOne]);
    expect(await (await t.request(progressPath(learner.id), { cookie: tutor.cookie })).json()).toEqual(own);
  });

  it("records the day when staff complete its last task, which opens the next day to the learner", async () => {
    const learner = await signedInAs("Student");
    const tasks = dayOneTasks();
    for (const taskId of tasks.slice(0, -1)) {
      const answer = await setTask(tutor.cookie, learner.id, ["chapter-1", "day-1", taskId], { status: "completed" });
      expect((await answer.json()).completedDays).toEqual([]);
    }
    expect(await dayTwoStatusFor(learner)).toBe(409);
    const last = await setTask(tutor.cookie, learner.id, ["chapter-1", "day-1", tasks.at(-1)!], {
      status: "completed",
    });
    expect((await last.json()).completedDays).toEqual([dayOne]);
    expect(await completionsOf(learner.id)).toEqual(["chapter-1/day-1"]);
    expect(await dayTwoStatusFor(learner)).toBe(200);
  });

  it.each(["in-progress", "not-started"])(
    "relocks the days after when staff set a completed task %s: the tutor says the day is not done",
    async (status) => {
      const learner = await learnerWhoFinishedDayOne();
      const response = await setTask(admin.cookie, learner.id, readSetting, { status });
      expect(response.status).toBe(200);
      expect((await response.json()).completedDays).toEqual([]);
      expect(await completionsOf(learner.id)).toEqual([]);
      expect(await dayTwoStatusFor(learner)).toBe(409);
      // Completing it again completes the day again.
      await setTask(admin.cookie, learner.id, readSetting, { status: "completed" });
      expect(await completionsOf(learner.id)).toEqual(["chapter-1/day-1"]);
      expect(await dayTwoStatusFor(learner)).toBe(200);
    },
  );

  it("relocks a learner who finished day 1 before it gained a task, when staff move one of its tasks back", async () => {
    const learner = await learnerWhoFinishedDayOne();
    const course: Chapter[] = structuredClone(t.course);
    course[0]!.days[0]!.tasks.push({ id: "practice:greetings", label: "Practise the greetings" });
    const grown = t.appWith({ course });
    expect(await dayTwoStatusFor(learner, grown)).toBe(200);

    // Staff progress on the new task is not a correction: the day stays completed once.
    const started = await grown.request(`${progressPath(learner.id)}/chapter-1/day-1/practice:greetings`, {
      method: "PUT",
      headers: { cookie: tutor.cookie, origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ status: "in-progress" }),
    });
    expect((await started.json()).completedDays).toEqual([dayOne]);
    expect(await dayTwoStatusFor(learner, grown)).toBe(200);

    const movedBack = await grown.request(`${progressPath(learner.id)}/chapter-1/day-1/story:read-setting`, {
      method: "PUT",
      headers: { cookie: tutor.cookie, origin: ORIGIN, "content-type": "application/json" },
      body: JSON.stringify({ status: "in-progress" }),
    });
    expect((await movedBack.json()).completedDays).toEqual([]);
    expect(await dayTwoStatusFor(learner, grown)).toBe(409);
  });

  it("leaves the completion when staff set an unchanged or another day's status", async () => {
    const learner = await learnerWhoFinishedDayOne();
    await setTask(tutor.cookie, learner.id, readSetting, { status: "completed" });
    await setTask(tutor.cookie, learner.id, dayTwoStory, { status: "not-started" });
    await setTask(tutor.cookie, learner.id, dayTwoStory, { status: "in-progress" });
    expect(await completionsOf(learner.id)).toEqual(["chapter-1/day-1"]);
  });

  it("removes every completed day with the reset, and only that learner's", async () => {
    const learner = await learnerWhoFinishedDayOne();
    const bystander = await learnerWhoFinishedDayOne();
    const response = await t.request(progressPath(learner.id), { method: "DELETE", cookie: tutor.cookie });
    expect(await response.json()).toEqual({ deleted: dayOneTasks().length });
    expect(await completionsOf(learner.id)).toEqual([]);
    expect(await completionsOf(bystander.id)).toEqual(["chapter-1/day-1"]);
    expect(await dayTwoStatusFor(learner)).toBe(409);
    expect(await dayTwoStatusFor(bystander)).toBe(200);
  });
});
