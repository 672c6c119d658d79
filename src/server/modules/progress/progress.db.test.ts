import { and, count, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { type Chapter, completionOf, courseOutline, findDay } from "#course/course";
import { dayStatus, isDayUnlocked } from "#course/progress-rules";
import type { Role } from "#course/roles";
import { dayCompletion, taskProgress, user as userTable } from "#server/db/schema";
import {
  allAnswered,
  answerPracticeSets,
  completeDayAsLearner,
  completeTask,
  type SendRequest,
  sendAs,
  tasksBesidePracticeOf,
} from "#tests/complete-day";
import { createTestApp, ORIGIN } from "#tests/test-app";
import { backfillDayCompletions } from "./progress.service";

const t = await createTestApp();

const taskPath = (chapterId: string, dayId: string, taskId: string) => `/api/progress/${chapterId}/${dayId}/${taskId}`;

async function signedInAs(role: Role = "Student") {
  const session = await t.signedInUser();
  await t.db.update(userTable).set({ role }).where(eq(userTable.email, session.user.email));
  const [row] = await t.db.select().from(userTable).where(eq(userTable.email, session.user.email));
  return { ...session, id: row!.id };
}

function put(cookie: string | undefined, [chapterId, dayId, taskId]: [string, string, string], body: unknown) {
  return t.request(taskPath(chapterId, dayId, taskId), { method: "PUT", cookie, json: body });
}

/** The stored rows of a user, with updated_at at full (microsecond) precision. */
async function rowsOf(userId: string) {
  return t.db
    .select({
      chapterId: taskProgress.chapterId,
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

const taskIdsOf = (chapterId: string, dayId: string) =>
  findDay(t.course, chapterId, dayId)!.day.tasks.map((task) => task.id);

/** Completes every task of the given days through the API, as the learner would (answering practice sets). */
async function completeDays(cookie: string, days: Array<[string, string]>) {
  for (const [chapterId, dayId] of days) {
    const statuses = await completeDayAsLearner(t, cookie, chapterId, dayId);
    expect(statuses, `${chapterId}/${dayId}`).toEqual(allAnswered(statuses));
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("GET /api/progress", () => {
  it("needs a session", async () => {
    const response = await t.request("/api/progress");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: "UNAUTHORIZED", message: "Please sign in to continue." } });
  });

  it("is an empty map for a new learner, never cached", async () => {
    const { cookie } = await signedInAs();
    const response = await t.request("/api/progress", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ progress: {}, completedDays: [] });
  });

  it("leaves out records whose status is not-started", async () => {
    const { cookie, id } = await signedInAs();
    await t.db.insert(taskProgress).values([
      { userId: id, chapterId: "chapter-1", sectionId: "day-1", taskId: "story:read-setting", status: "not-started" },
      { userId: id, chapterId: "chapter-1", sectionId: "day-1", taskId: "story:read-dialog", status: "in-progress" },
    ]);
    const response = await t.request("/api/progress", { cookie });
    expect(await response.json()).toEqual({
      progress: { "chapter-1": { "day-1": { "story:read-dialog": "in-progress" } } },
      completedDays: [],
    });
  });
});

describe("PUT /api/progress/:chapterId/:dayId/:taskId", () => {
  const readSetting: [string, string, string] = ["chapter-1", "day-1", "story:read-setting"];

  it("needs a session and writes nothing", async () => {
    const before = await allRowCount();
    const response = await put(undefined, readSetting, { status: "completed" });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: "UNAUTHORIZED", message: "Please sign in to continue." } });
    expect(await allRowCount()).toBe(before);
  });

  it("records a task in progress, then completed, and a later GET shows the same map", async () => {
    const { cookie, id } = await signedInAs();
    const started = await put(cookie, readSetting, { status: "in-progress" });
    expect(started.status).toBe(200);
    expect(await started.json()).toEqual({
      progress: { "chapter-1": { "day-1": { "story:read-setting": "in-progress" } } },
      completedDays: [],
    });

    await put(cookie, ["chapter-1", "day-1", "story:read-dialog"], { status: "in-progress" });
    const completed = await put(cookie, readSetting, { status: "completed" });
    expect(completed.status).toBe(200);
    const expected = {
      progress: { "chapter-1": { "day-1": { "story:read-setting": "completed", "story:read-dialog": "in-progress" } } },
      completedDays: [],
    };
    expect(await completed.json()).toEqual(expected);
    expect(await (await t.request("/api/progress", { cookie })).json()).toEqual(expected);
    expect((await rowsOf(id)).map(({ taskId, status }) => [taskId, status])).toEqual([
      ["story:read-dialog", "in-progress"],
      ["story:read-setting", "completed"],
    ]);
  });

  it("stores a write the device's outbox sends again once, and answers the same map (decision 088)", async () => {
    const me = await signedInAs();
    const task = ["chapter-1", "day-1", taskIdsOf("chapter-1", "day-1")[0]!] as [string, string, string];
    const first = await put(me.cookie, task, { status: "in-progress" });
    expect(first.status).toBe(200);
    const stored = await rowsOf(me.id);
    const resent = await put(me.cookie, task, { status: "in-progress" });
    expect(resent.status).toBe(200);
    expect(await resent.json()).toEqual(await first.json());
    expect(await rowsOf(me.id)).toEqual(stored);
    expect(stored).toHaveLength(1);
  });

  it("writes nothing when the status is unchanged, so updated_at keeps the time of the last change", async () => {
    const { cookie, id } = await signedInAs();
    await put(cookie, readSetting, { status: "in-progress" });
    const [first] = await rowsOf(id);
    await pause(20);
    expect((await put(cookie, readSetting, { status: "in-progress" })).status).toBe(200);
    expect((await rowsOf(id))[0]!.updatedAt).toBe(first!.updatedAt);

    // A real change does move it: the comparison above would notice a write.
    await pause(20);
    await put(cookie, readSetting, { status: "completed" });
    const [changed] = await rowsOf(id);
    expect(changed!.updatedAt).not.toBe(first!.updatedAt);

    await pause(20);
    expect((await put(cookie, readSetting, { status: "completed" })).status).toBe(200);
    expect(await rowsOf(id)).toEqual([changed]);
  });

  it("saves in one statement after the session check, and a repeated save waits for no row lock", async () => {
    const { cookie, id } = await signedInAs();
    const queries = vi.spyOn(t.pool, "query");
    try {
      expect((await put(cookie, readSetting, { status: "in-progress" })).status).toBe(200);
      expect(queries).toHaveBeenCalledTimes(2);
    } finally {
      queries.mockRestore();
    }

    // Another transaction holds the row. Saving the status it already has neither waits for it nor writes.
    const holder = await t.pool.connect();
    try {
      await holder.query("begin");
      await holder.query("select 1 from task_progress where user_id = $1 for update", [id]);
      const answer = await Promise.race([
        Promise.resolve(put(cookie, readSetting, { status: "in-progress" })).then((response) => response.status),
        pause(3000).then(() => "still waiting"),
      ]);
      expect(answer).toBe(200);
    } finally {
      await holder.query("rollback");
      holder.release();
    }
  });

  it("keeps a completed task completed when a learner sends in-progress (progress moves forward)", async () => {
    const { cookie, id } = await signedInAs();
    await put(cookie, readSetting, { status: "completed" });
    const [before] = await rowsOf(id);
    await pause(20);
    const response = await put(cookie, readSetting, { status: "in-progress" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      progress: { "chapter-1": { "day-1": { "story:read-setting": "completed" } } },
      completedDays: [],
    });
    expect(await rowsOf(id)).toEqual([before]);
  });

  it("accepts the task id with its colon percent-encoded", async () => {
    const { cookie, id } = await signedInAs();
    const response = await t.request("/api/progress/chapter-1/day-1/story%3Aread-setting", {
      method: "PUT",
      cookie,
      json: { status: "in-progress" },
    });
    expect(response.status).toBe(200);
    expect((await rowsOf(id)).map((row) => row.taskId)).toEqual(["story:read-setting"]);
  });

  it.each([
    [["chapter-9", "day-1", "story:read-setting"], 'There is no chapter "chapter-9".'],
    [["chapter-1", "day-9", "story:read-setting"], '"chapter-1" has no day "day-9".'],
    [["chapter-1", "day-6", "story:read-story"], '"chapter-1" has no day "day-6".'],
    [["chapter-1", "day-1", "story:foo"], 'Day 1 of chapter-1 has no task "story:foo".'],
    [["chapter-1", "day-1", "story:read-story"], 'Day 1 of chapter-1 has no task "story:read-story".'],
  ] as Array<[[string, string, string], string]>)(
    "refuses %j with a 400 naming what is unknown, writing nothing",
    async (target, message) => {
      const { cookie, id } = await signedInAs();
      const response = await put(cookie, target, { status: "completed" });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code: "BAD_REQUEST", message } });
      expect(await rowsOf(id)).toEqual([]);
    },
  );

  it.each([
    ["no status", {}, "status"],
    ["not-started", { status: "not-started" }, "status"],
    ["an unknown status", { status: "done" }, "status"],
    ["a number", { status: 1 }, "status"],
    ["a user id beside the status", { status: "completed", userId: "someone-else" }, ""],
    ["an array", [{ status: "completed" }], ""],
    ["null", null, ""],
  ])("refuses a body with %s with the validation error and writes nothing", async (_label, body, path) => {
    const { cookie, id } = await signedInAs();
    const response = await put(cookie, readSetting, body);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toMatchObject({ code: "BAD_REQUEST", message: "The request is not valid." });
    expect(error.issues.map((issue: { path: string }) => issue.path)).toContain(path);
    expect(await rowsOf(id)).toEqual([]);
  });

  it("says which statuses are allowed", async () => {
    const { cookie } = await signedInAs();
    const missing = await (await put(cookie, readSetting, {})).json();
    expect(missing.error.issues).toEqual([{ path: "status", message: "Status is required." }]);
    const wrong = await (await put(cookie, readSetting, { status: "not-started" })).json();
    expect(wrong.error.issues).toEqual([{ path: "status", message: 'Status must be "in-progress" or "completed".' }]);
  });

  it("refuses malformed JSON, a body that is not JSON and an oversize body, writing nothing", async () => {
    const { cookie, id } = await signedInAs();
    const [chapterId, dayId, taskId] = readSetting;
    const malformed = await t.request(taskPath(chapterId, dayId, taskId), {
      method: "PUT",
      cookie,
      headers: { "content-type": "application/json" },
      body: '{"status": "completed",',
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error).toEqual({
      code: "BAD_REQUEST",
      message: "The request body is not valid JSON.",
    });

    const form = await t.request(taskPath(chapterId, dayId, taskId), {
      method: "PUT",
      cookie,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "status=completed",
    });
    expect(form.status).toBe(400);

    const big = await put(cookie, readSetting, { status: "completed", padding: "x".repeat(100_000) });
    expect(big.status).toBe(413);
    expect((await big.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await rowsOf(id)).toEqual([]);
  });
});

describe("a spoken task and bare progress writes (decision 047)", () => {
  const spoken = ["codebook:listen-shadow", "live-session:greeting-practice"] as const;
  const speakingRequired = {
    error: {
      code: "SPEAKING_REQUIRED",
      message:
        "This task is completed by speaking: say each of its lines (record it or mark it said aloud), or do its role-play alone or with a tutor.",
    },
  };

  it("refuses a learner's or staff's own bare completed of a listen-and-shadow mission or a role-play (409), writing nothing; in progress is allowed", async () => {
    for (const role of ["Student", "Tutor", "Admin"] as const) {
      const { cookie, id } = await signedInAs(role);
      for (const taskId of spoken) {
        const refused = await put(cookie, ["chapter-1", "day-1", taskId], { status: "completed" });
        expect(refused.status, `${role} ${taskId}`).toBe(409);
        expect(await refused.json()).toEqual(speakingRequired);
      }
      expect(await rowsOf(id)).toEqual([]);
      const opened = await put(cookie, ["chapter-1", "day-1", spoken[0]], { status: "in-progress" });
      expect(opened.status).toBe(200);
      expect((await rowsOf(id)).map((row) => `${row.taskId} ${row.status}`)).toEqual([`${spoken[0]} in-progress`]);
    }
  });

  it("completes them the spoken way: the mission once each line is heard and said, the role-play once sent", async () => {
    const { cookie, id } = await signedInAs();
    const send = sendAs(t, cookie);
    for (const taskId of spoken) expect(await completeTask(send, t.course, { ...dayOne, taskId })).toBe("done");
    expect((await rowsOf(id)).map((row) => `${row.taskId} ${row.status}`)).toEqual(
      spoken.map((taskId) => `${taskId} completed`).sort(),
    );
  });

  it("leaves a tutor's controls as they were: staff set a learner's spoken task completed", async () => {
    const learner = await signedInAs();
    const tutor = await signedInAs("Tutor");
    for (const taskId of spoken) {
      const set = await t.request(`/api/users/${learner.id}/progress/chapter-1/day-1/${taskId}`, {
        method: "PUT",
        cookie: tutor.cookie,
        json: { status: "completed" },
      });
      expect(set.status, taskId).toBe(200);
    }
    expect((await rowsOf(learner.id)).map((row) => `${row.taskId} ${row.status}`)).toEqual(
      spoken.map((taskId) => `${taskId} completed`).sort(),
    );
  });
});

describe("day locking", () => {
  it("refuses a day-2 task with 409 until every day-1 task is completed, then records it", async () => {
    const { cookie, id } = await signedInAs();
    const readStory: [string, string, string] = ["chapter-1", "day-2", "story:read-story"];
    const locked = await put(cookie, readStory, { status: "in-progress" });
    expect(locked.status).toBe(409);
    expect(await locked.json()).toEqual({
      error: { code: "DAY_LOCKED", message: "Day 2 is locked. Finish Day 1 first." },
    });

    expect(await answerPracticeSets(t, cookie, "chapter-1", "day-1")).toEqual({ "codebook:practice": "done" });
    const dayOneTasks = tasksBesidePracticeOf(t.course, "chapter-1", "day-1");
    for (const taskId of dayOneTasks.slice(0, -1))
      expect(await completeTask(sendAs(t, cookie), t.course, { ...dayOne, taskId })).toBe("done");
    // An in-progress last task is not enough.
    await put(cookie, ["chapter-1", "day-1", dayOneTasks.at(-1)!], { status: "in-progress" });
    expect((await put(cookie, readStory, { status: "in-progress" })).status).toBe(409);
    expect((await rowsOf(id)).filter((row) => row.dayId === "day-2")).toEqual([]);

    expect(await completeTask(sendAs(t, cookie), t.course, { ...dayOne, taskId: dayOneTasks.at(-1)! })).toBe("done");
    const open = await put(cookie, readStory, { status: "in-progress" });
    expect(open.status).toBe(200);
    expect((await open.json()).progress["chapter-1"]["day-2"]).toEqual({ "story:read-story": "in-progress" });
  });

  it("keeps chapter 2's day 6 locked until days 1 to 5 are complete, naming the first unfinished day, then day 7 until day 6 is", async () => {
    const { cookie, id } = await signedInAs();
    const daySix: [string, string, string] = ["chapter-2", "day-6", "story:read-story"];
    await completeDays(cookie, [
      ["chapter-1", "day-1"],
      ["chapter-1", "day-2"],
    ]);
    const locked = await put(cookie, daySix, { status: "in-progress" });
    expect(locked.status).toBe(409);
    expect((await locked.json()).error).toEqual({
      code: "DAY_LOCKED",
      message: "Day 6 is locked. Finish Day 3 first.",
    });

    await completeDays(cookie, [
      ["chapter-1", "day-3"],
      ["chapter-1", "day-4"],
    ]);
    expect((await (await put(cookie, daySix, { status: "in-progress" })).json()).error.message).toBe(
      "Day 6 is locked. Finish Day 5 first.",
    );
    expect((await rowsOf(id)).filter((row) => row.chapterId === "chapter-2")).toEqual([]);

    await completeDays(cookie, [["chapter-1", "day-5"]]);
    expect((await put(cookie, daySix, { status: "in-progress" })).status).toBe(200);

    // Then chapter 2's days open one after another, like chapter 1's.
    const daySeven: [string, string, string] = ["chapter-2", "day-7", "story:read-story"];
    expect((await (await put(cookie, daySeven, { status: "in-progress" })).json()).error.message).toBe(
      "Day 7 is locked. Finish Day 6 first.",
    );
    await completeDays(cookie, [["chapter-2", "day-6"]]);
    expect((await put(cookie, daySeven, { status: "in-progress" })).status).toBe(200);
  });

  it.each([
    ["a Tutor", "Tutor"],
    ["an Admin", "Admin"],
  ] as const)("never locks %s out of a day", async (_label, role) => {
    const { cookie, id } = await signedInAs(role);
    expect((await put(cookie, ["chapter-1", "day-2", "story:read-story"], { status: "completed" })).status).toBe(200);
    const daySix = await put(cookie, ["chapter-2", "day-6", "codebook:review-vocab"], { status: "in-progress" });
    expect(daySix.status).toBe(200);
    expect((await daySix.json()).progress).toEqual({
      "chapter-1": { "day-2": { "story:read-story": "completed" } },
      "chapter-2": { "day-6": { "codebook:review-vocab": "in-progress" } },
    });
    expect((await rowsOf(id)).map(({ dayId, taskId }) => `${dayId} ${taskId}`)).toEqual([
      "day-2 story:read-story",
      "day-6 codebook:review-vocab",
    ]);

    // The course's last day too, with nothing done before it.
    const dayTen = await put(cookie, ["chapter-2", "day-10", "review:task-1"], { status: "in-progress" });
    expect(dayTen.status).toBe(200);
    expect((await dayTen.json()).progress["chapter-2"]["day-10"]).toEqual({ "review:task-1": "in-progress" });
  });
});

describe("whose progress", () => {
  it("keeps two learners' progress apart: each reads and writes only their own", async () => {
    const a = await signedInAs();
    const b = await signedInAs();
    await put(a.cookie, ["chapter-1", "day-1", "story:read-setting"], { status: "completed" });
    const aRows = await rowsOf(a.id);

    expect(await (await t.request("/api/progress", { cookie: b.cookie })).json()).toEqual({
      progress: {},
      completedDays: [],
    });

    // A user id in the query string is not how the API is addressed; the session decides.
    const written = await t.request(`${taskPath("chapter-1", "day-1", "story:read-dialog")}?userId=${a.id}`, {
      method: "PUT",
      cookie: b.cookie,
      json: { status: "in-progress" },
    });
    expect(written.status).toBe(200);
    expect(await written.json()).toEqual({
      progress: { "chapter-1": { "day-1": { "story:read-dialog": "in-progress" } } },
      completedDays: [],
    });
    expect((await rowsOf(b.id)).map((row) => row.taskId)).toEqual(["story:read-dialog"]);
    expect(await rowsOf(a.id)).toEqual(aRows);
    expect(await (await t.request("/api/progress", { cookie: a.cookie })).json()).toEqual({
      progress: { "chapter-1": { "day-1": { "story:read-setting": "completed" } } },
      completedDays: [],
    });
  });

  it("unlocks days by the caller's own progress, not another learner's", async () => {
    const ahead = await signedInAs();
    const behind = await signedInAs();
    await completeDays(ahead.cookie, [["chapter-1", "day-1"]]);
    const response = await put(behind.cookie, ["chapter-1", "day-2", "story:read-story"], { status: "completed" });
    expect(response.status).toBe(409);
    expect(await rowsOf(behind.id)).toEqual([]);
  });
});

describe("request origin", () => {
  it("accepts a PUT with the site's own Origin, as a browser sends it, and one without Origin", async () => {
    const { cookie, id } = await signedInAs();
    const sameSite = await t.request(taskPath("chapter-1", "day-1", "story:read-setting"), {
      method: "PUT",
      cookie,
      headers: { origin: ORIGIN },
      json: { status: "in-progress" },
    });
    expect(sameSite.status).toBe(200);

    const withoutOrigin = await t.app.request(taskPath("chapter-1", "day-1", "story:read-dialog"), {
      method: "PUT",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ status: "in-progress" }),
    });
    expect(withoutOrigin.status).toBe(200);
    expect((await rowsOf(id)).map((row) => row.taskId)).toEqual(["story:read-dialog", "story:read-setting"]);
  });

  it("refuses a PUT from another site with 403 and writes nothing", async () => {
    const { cookie, id } = await signedInAs();
    const response = await t.request(taskPath("chapter-1", "day-1", "story:read-setting"), {
      method: "PUT",
      cookie,
      headers: { origin: "https://evil.example" },
      json: { status: "completed" },
    });
    expect(response.status).toBe(403);
    expect((await response.json()).error.code).toBe("FORBIDDEN");
    expect(await rowsOf(id)).toEqual([]);
  });
});

describe("the stored rows", () => {
  it("key progress on user, chapter, day (section_id) and task", async () => {
    const { cookie, id } = await signedInAs();
    await put(cookie, ["chapter-1", "day-1", "story:read-setting"], { status: "in-progress" });
    await put(cookie, ["chapter-1", "day-1", "story:read-setting"], { status: "completed" });
    const rows = await t.db
      .select()
      .from(taskProgress)
      .where(and(eq(taskProgress.userId, id), eq(taskProgress.sectionId, "day-1")));
    expect(rows).toEqual([
      expect.objectContaining({
        userId: id,
        chapterId: "chapter-1",
        sectionId: "day-1",
        taskId: "story:read-setting",
        status: "completed",
      }),
    ]);
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

/** Every row version of day_completion (ctid and the transaction that wrote it): any write changes it. */
async function completionVersions() {
  const { rows } = await t.pool.query(`select ctid::text, xmin::text from day_completion order by ctid`);
  return rows;
}

/** The course as it will be once day 1 gains a Practice task (item 5 of "The course engine"). */
const NEW_TASK = "practice:greetings";
function courseWithNewTaskOnDayOne(): Chapter[] {
  const course = structuredClone(t.course);
  course[0]!.days[0]!.tasks.push({ id: NEW_TASK, label: "Practise the greetings" });
  return course;
}

/** A request to another app on the same database (a restart with new content), as the browser sends it. */
function requestTo(
  app: ReturnType<typeof t.appWith>,
  path: string,
  { cookie, method = "GET", json }: { cookie: string; method?: string; json?: unknown },
) {
  const headers: Record<string, string> = { cookie, origin: ORIGIN };
  if (json !== undefined) headers["content-type"] = "application/json";
  return app.request(path, { method, headers, body: json === undefined ? undefined : JSON.stringify(json) });
}

const dayOne = { chapterId: "chapter-1", dayId: "day-1" };

describe("a day completed once stays complete for unlocking (decision 030)", () => {
  it("records the day when its last task is completed, and answers it beside the progress", async () => {
    const { cookie, id } = await signedInAs();
    // The practice set first: its last answer completes its task, not yet the day.
    expect(await answerPracticeSets(t, cookie, "chapter-1", "day-1")).toEqual({ "codebook:practice": "done" });
    expect(await completionsOf(id)).toEqual([]);
    // Every other task but one a status write completes, each the way it is completed (lines said, role-plays sent).
    const tasks = tasksBesidePracticeOf(t.course, "chapter-1", "day-1");
    const last = tasks.findLast((taskId) => completionOf(t.course, { ...dayOne, taskId }) === "status")!;
    for (const taskId of tasks.filter((each) => each !== last)) {
      expect(await completeTask(sendAs(t, cookie), t.course, { ...dayOne, taskId })).toBe("done");
      expect(await completionsOf(id)).toEqual([]);
    }
    // In progress is not complete.
    await put(cookie, ["chapter-1", "day-1", last], { status: "in-progress" });
    expect(await completionsOf(id)).toEqual([]);

    const lastSave = await put(cookie, ["chapter-1", "day-1", last], { status: "completed" });
    expect((await lastSave.json()).completedDays).toEqual([dayOne]);
    expect(await completionsOf(id)).toEqual(["chapter-1/day-1"]);
    expect((await (await t.request("/api/progress", { cookie })).json()).completedDays).toEqual([dayOne]);

    await completeDays(cookie, [["chapter-1", "day-2"]]);
    expect((await (await t.request("/api/progress", { cookie })).json()).completedDays).toEqual([
      dayOne,
      { chapterId: "chapter-1", dayId: "day-2" },
    ]);
  });

  it("keeps day 2 open after day 1 gains a task, which shows as not started on a day in progress", async () => {
    const finished = await signedInAs();
    const unfinished = await signedInAs();
    await completeDays(finished.cookie, [["chapter-1", "day-1"]]);
    await answerPracticeSets(t, unfinished.cookie, "chapter-1", "day-1");
    const dayOneTasks = tasksBesidePracticeOf(t.course, "chapter-1", "day-1");
    for (const taskId of dayOneTasks.slice(0, -1)) {
      expect(await completeTask(sendAs(t, unfinished.cookie), t.course, { ...dayOne, taskId })).toBe("done");
    }

    // The server restarts with the new content: the same database, the course with a new task on day 1.
    const course = courseWithNewTaskOnDayOne();
    const grown = t.appWith({ course });
    const outline = courseOutline(course);

    const dayTwo = await requestTo(grown, taskPath("chapter-1", "day-2", "story:read-story"), {
      cookie: finished.cookie,
      method: "PUT",
      json: { status: "in-progress" },
    });
    expect(dayTwo.status).toBe(200);
    const own = await (await requestTo(grown, "/api/progress", { cookie: finished.cookie })).json();
    expect(own.completedDays).toEqual([dayOne]);
    expect(Object.keys(own.progress["chapter-1"]["day-1"])).not.toContain(NEW_TASK);
    expect(own.progress["chapter-1"]["day-2"]).toEqual({ "story:read-story": "in-progress" });
    // The web's rules read the answer the same way: day 1 in progress, day 2 open.
    expect(dayStatus(own.progress, outline[0]!)).toBe("in-progress");
    expect(
      isDayUnlocked(outline, own.progress, outline[1]!, { signedIn: true, role: "Student" }, own.completedDays),
    ).toBe(true);

    // The learner who had not finished day 1 is still locked out of day 2, now until the new task is done too.
    const lockedOut = () =>
      requestTo(grown, taskPath("chapter-1", "day-2", "story:read-story"), {
        cookie: unfinished.cookie,
        method: "PUT",
        json: { status: "in-progress" },
      });
    const refused = await lockedOut();
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toBe("Day 2 is locked. Finish Day 1 first.");
    const onGrown: SendRequest = async (method, path, json) =>
      (await requestTo(grown, path, { cookie: unfinished.cookie, method, json })).status;
    expect(await completeTask(onGrown, course, { ...dayOne, taskId: dayOneTasks.at(-1)! })).toBe("done");
    expect((await lockedOut()).status).toBe(409);
    expect(await completionsOf(unfinished.id)).toEqual([]);

    const newTask = await requestTo(grown, taskPath("chapter-1", "day-1", NEW_TASK), {
      cookie: unfinished.cookie,
      method: "PUT",
      json: { status: "completed" },
    });
    expect((await newTask.json()).completedDays).toEqual([dayOne]);
    expect((await lockedOut()).status).toBe(200);
  });

  it("writes no completion again on a repeated save, and waits for no lock on it", async () => {
    const { cookie, id } = await signedInAs();
    await completeDays(cookie, [["chapter-1", "day-1"]]);
    const versions = await completionVersions();
    // The day's last task a status write completes: a save of a completed task changes nothing.
    const lastTask: [string, string, string] = [
      "chapter-1",
      "day-1",
      taskIdsOf("chapter-1", "day-1").findLast((taskId) => completionOf(t.course, { ...dayOne, taskId }) === "status")!,
    ];
    expect((await put(cookie, lastTask, { status: "completed" })).status).toBe(200);
    expect((await put(cookie, ["chapter-1", "day-2", "story:read-story"], { status: "in-progress" })).status).toBe(200);
    expect(await completionVersions()).toEqual(versions);

    const queries = vi.spyOn(t.pool, "query");
    const holder = await t.pool.connect();
    try {
      await holder.query("begin");
      await holder.query("select 1 from day_completion where user_id = $1 for update", [id]);
      const answer = await Promise.race([
        Promise.resolve(put(cookie, ["chapter-1", "day-2", "story:read-story"], { status: "in-progress" })).then(
          (response) => response.status,
        ),
        pause(3000).then(() => "still waiting"),
      ]);
      expect(answer).toBe(200);
      // The session check and the save: the gate and the completions are in the save's one statement.
      expect(queries).toHaveBeenCalledTimes(2);
    } finally {
      queries.mockRestore();
      await holder.query("rollback");
      holder.release();
    }
  });

  it("records a finished day whose row is missing at the next save after it, never on a refused one", async () => {
    const { cookie, id } = await signedInAs();
    await completeDays(cookie, [["chapter-1", "day-1"]]);
    // As when two saves completed the day's last two tasks at the same moment: neither saw the day complete.
    await t.db.delete(dayCompletion).where(eq(dayCompletion.userId, id));

    expect((await put(cookie, ["chapter-1", "day-3", "story:read-story"], { status: "in-progress" })).status).toBe(409);
    expect(await completionsOf(id)).toEqual([]);

    const dayTwo = await put(cookie, ["chapter-1", "day-2", "story:read-story"], { status: "in-progress" });
    expect((await dayTwo.json()).completedDays).toEqual([dayOne]);
    expect(await completionsOf(id)).toEqual(["chapter-1/day-1"]);
  });

  it("records a staff member's own completed days too, though they are never locked out", async () => {
    const { cookie, id } = await signedInAs("Tutor");
    await completeDays(cookie, [["chapter-1", "day-2"]]);
    expect(await completionsOf(id)).toEqual(["chapter-1/day-2"]);
  });
});

describe("backfillDayCompletions, at start", () => {
  /** A learner whose progress was stored before completions were recorded: rows written directly. */
  async function learnerWithStoredProgress(
    days: Array<[string, string]>,
    partly: Array<[string, string, string]> = [],
  ) {
    const { id, cookie } = await signedInAs();
    const rows = days.flatMap(([chapterId, dayId]) =>
      taskIdsOf(chapterId, dayId).map((taskId) => ({ chapterId, dayId, taskId })),
    );
    await t.db.insert(taskProgress).values([
      ...rows.map(({ chapterId, dayId, taskId }) => ({
        userId: id,
        chapterId,
        sectionId: dayId,
        taskId,
        status: "completed" as const,
      })),
      ...partly.map(([chapterId, dayId, taskId]) => ({
        userId: id,
        chapterId,
        sectionId: dayId,
        taskId,
        status: "completed" as const,
      })),
    ]);
    return { id, cookie };
  }

  it("records every day a user's stored progress completes, once, and nothing else", async () => {
    const { id: first } = await learnerWithStoredProgress(
      [
        ["chapter-1", "day-1"],
        ["chapter-1", "day-2"],
      ],
      [["chapter-1", "day-3", "story:read-story"]],
    );
    const { id: second } = await learnerWithStoredProgress([], [["chapter-1", "day-1", "story:read-setting"]]);
    // An in-progress task does not complete its day.
    const { id: third } = await signedInAs();
    await t.db.insert(taskProgress).values(
      taskIdsOf("chapter-1", "day-1").map((taskId, index) => ({
        userId: third,
        chapterId: "chapter-1",
        sectionId: "day-1",
        taskId,
        status: index === 0 ? ("in-progress" as const) : ("completed" as const),
      })),
    );

    expect(await backfillDayCompletions(t.db, t.course)).toBeGreaterThanOrEqual(2);
    expect(await completionsOf(first)).toEqual(["chapter-1/day-1", "chapter-1/day-2"]);
    expect(await completionsOf(second)).toEqual([]);
    expect(await completionsOf(third)).toEqual([]);

    const versions = await completionVersions();
    expect(await backfillDayCompletions(t.db, t.course)).toBe(0);
    expect(await completionVersions()).toEqual(versions);
  });

  it("is safe when several instances start at once", async () => {
    const learners = await Promise.all(
      Array.from({ length: 5 }, () =>
        learnerWithStoredProgress([
          ["chapter-1", "day-1"],
          ["chapter-1", "day-2"],
          ["chapter-1", "day-3"],
        ]),
      ),
    );
    const inserted = await Promise.all([
      backfillDayCompletions(t.db, t.course),
      backfillDayCompletions(t.db, t.course),
      backfillDayCompletions(t.db, t.course),
    ]);
    expect(inserted.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(15);
    for (const { id } of learners) {
      expect(await completionsOf(id)).toEqual(["chapter-1/day-1", "chapter-1/day-2", "chapter-1/day-3"]);
    }
  });

  it("keeps day 2 open for a learner who finished day 1 before completions were recorded, once day 1 gains a task", async () => {
    const { cookie } = await learnerWithStoredProgress([["chapter-1", "day-1"]]);
    await backfillDayCompletions(t.db, t.course);
    const grown = t.appWith({ course: courseWithNewTaskOnDayOne() });
    const dayTwo = await requestTo(grown, taskPath("chapter-1", "day-2", "story:read-story"), {
      cookie,
      method: "PUT",
      json: { status: "in-progress" },
    });
    expect(dayTwo.status).toBe(200);
  });

  it("judges days by the course it is given: a day with a task the learner never had is not recorded", async () => {
    const { id } = await learnerWithStoredProgress([["chapter-1", "day-1"]]);
    await backfillDayCompletions(t.db, courseWithNewTaskOnDayOne());
    expect(await completionsOf(id)).toEqual([]);
  });
});

describe("who wrote a status last (by_staff), and the learner's last activity", () => {
  const readSetting: [string, string, string] = ["chapter-1", "day-1", "story:read-setting"];
  const readDialog: [string, string, string] = ["chapter-1", "day-1", "story:read-dialog"];

  /** A user's statuses with who wrote each last and when (`at`; `updatedAt` at full precision). */
  async function writersOf(userId: string) {
    return t.db
      .select({
        taskId: taskProgress.taskId,
        status: taskProgress.status,
        byStaff: taskProgress.byStaff,
        at: taskProgress.updatedAt,
        updatedAt: sql<string>`${taskProgress.updatedAt}::text`,
      })
      .from(taskProgress)
      .where(eq(taskProgress.userId, userId))
      .orderBy(taskProgress.taskId);
  }

  function staffPut(
    cookie: string,
    userId: string,
    [chapterId, dayId, taskId]: [string, string, string],
    body: unknown,
  ) {
    return t.request(`/api/users/${userId}/progress/${chapterId}/${dayId}/${taskId}`, {
      method: "PUT",
      cookie,
      json: body,
    });
  }

  /** The one row of the task, as writersOf reads it. */
  const rowOf = async (userId: string, taskId: string) =>
    (await writersOf(userId)).find((row) => row.taskId === taskId);

  it("marks a learner's save as theirs and a tutor's change as staff's, when inserted and when updated; a write that changes nothing leaves both mark and time", async () => {
    const learner = await signedInAs();
    const tutor = await signedInAs("Tutor");
    const setting = readSetting[2];
    const dialog = readDialog[2];

    expect((await put(learner.cookie, readSetting, { status: "in-progress" })).status).toBe(200);
    const saved = await rowOf(learner.id, setting);
    expect(saved).toMatchObject({ status: "in-progress", byStaff: false });

    // The tutor sets the status it already has: nothing is written, so it stays the learner's.
    await pause(5);
    expect((await staffPut(tutor.cookie, learner.id, readSetting, { status: "in-progress" })).status).toBe(200);
    expect(await rowOf(learner.id, setting)).toEqual(saved);

    await pause(5);
    expect((await staffPut(tutor.cookie, learner.id, readSetting, { status: "completed" })).status).toBe(200);
    const corrected = await rowOf(learner.id, setting);
    expect(corrected).toMatchObject({ status: "completed", byStaff: true });
    expect(corrected!.updatedAt).not.toBe(saved!.updatedAt);

    expect((await staffPut(tutor.cookie, learner.id, readDialog, { status: "in-progress" })).status).toBe(200);
    expect(await rowOf(learner.id, dialog)).toMatchObject({ status: "in-progress", byStaff: true });

    // The learner's save of a completed task changes nothing: the tutor wrote it last.
    await pause(5);
    expect((await put(learner.cookie, readSetting, { status: "completed" })).status).toBe(200);
    expect(await rowOf(learner.id, setting)).toEqual(corrected);

    // Their save over the tutor's status is theirs again.
    expect((await put(learner.cookie, readDialog, { status: "completed" })).status).toBe(200);
    expect(await rowOf(learner.id, dialog)).toMatchObject({ status: "completed", byStaff: false });
  });

  it("moveTaskForward by staff, as a tutor's rating in a session completes a role-play, is not the learner's activity; their own is", async () => {
    const learner = await signedInAs();
    const progress = t.modules.progress.service;
    const rolePlay = { ...dayOne, taskId: "live-session:greeting-practice" };

    const completed = await t.db.transaction((tx) =>
      progress.moveTaskForward(learner.id, rolePlay, "completed", tx, "staff"),
    );
    expect(completed).toBe(true);
    expect(await rowOf(learner.id, rolePlay.taskId)).toMatchObject({ status: "completed", byStaff: true });
    expect(await progress.lastActivityAt(learner.id)).toBeNull();

    // The learner's own: a save, then a move forward (as answering a practice set makes).
    expect((await put(learner.cookie, readSetting, { status: "in-progress" })).status).toBe(200);
    const saved = await progress.lastActivityAt(learner.id);
    expect(saved).toEqual((await rowOf(learner.id, readSetting[2]))!.at);
    await pause(5);
    await progress.moveTaskForward(learner.id, { ...dayOne, taskId: readDialog[2] }, "in-progress");
    const own = await progress.lastActivityAt(learner.id);
    expect(own!.getTime()).toBeGreaterThan(saved!.getTime());
    expect(own).toEqual((await rowOf(learner.id, readDialog[2]))!.at);

    // Staff moves, over a status the learner wrote and on a task they never met, leave it as it was.
    await pause(5);
    await progress.moveTaskForward(learner.id, { ...dayOne, taskId: readSetting[2] }, "completed", t.db, "staff");
    expect(await rowOf(learner.id, readSetting[2])).toMatchObject({ status: "completed", byStaff: true });
    const ordering = { ...dayOne, taskId: "live-session:ordering-drink" };
    await progress.moveTaskForward(learner.id, ordering, "completed", t.db, "staff");
    expect(await rowOf(learner.id, ordering.taskId)).toMatchObject({ status: "completed", byStaff: true });
    expect(await progress.lastActivityAt(learner.id)).toEqual(own);
  });

  it("keeps the time of the learner's own latest change when staff change that task after them: Last active never moves back", async () => {
    const learner = await signedInAs();
    const tutor = await signedInAs("Tutor");
    const progress = t.modules.progress.service;

    expect((await put(learner.cookie, readSetting, { status: "in-progress" })).status).toBe(200);
    const first = await progress.lastActivityAt(learner.id);
    await pause(5);
    expect((await put(learner.cookie, readDialog, { status: "in-progress" })).status).toBe(200);
    const latest = await progress.lastActivityAt(learner.id);
    expect(latest!.getTime()).toBeGreaterThan(first!.getTime());
    expect(latest).toEqual((await rowOf(learner.id, readDialog[2]))!.at);

    // The tutor corrects the task the learner changed last, through the API and as a session's rating does.
    await pause(5);
    expect((await staffPut(tutor.cookie, learner.id, readDialog, { status: "completed" })).status).toBe(200);
    expect(await rowOf(learner.id, readDialog[2])).toMatchObject({ status: "completed", byStaff: true });
    await progress.moveTaskForward(learner.id, { ...dayOne, taskId: readSetting[2] }, "completed", t.db, "staff");
    expect(await progress.lastActivityAt(learner.id)).toEqual(latest);

    // Their next change of their own is their latest activity again.
    await pause(5);
    expect(
      (await put(learner.cookie, ["chapter-1", "day-1", "codebook:listen-shadow"], { status: "in-progress" })).status,
    ).toBe(200);
    expect((await progress.lastActivityAt(learner.id))!.getTime()).toBeGreaterThan(latest!.getTime());
  });
});
