import { and, count, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { createTestApp, ORIGIN } from "../../../../tests/test-app";
import { findDay } from "../../../course/course";
import type { Role } from "../../../course/roles";
import { taskProgress, user as userTable } from "../../db/schema";

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

/** Completes every task of the given days through the API, as the learner would. */
async function completeDays(cookie: string, days: Array<[string, string]>) {
  for (const [chapterId, dayId] of days) {
    for (const taskId of taskIdsOf(chapterId, dayId)) {
      const response = await put(cookie, [chapterId, dayId, taskId], { status: "completed" });
      expect(response.status, `${chapterId}/${dayId}/${taskId}`).toBe(200);
    }
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
    expect(await response.json()).toEqual({ progress: {} });
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
    });

    await put(cookie, ["chapter-1", "day-1", "story:read-dialog"], { status: "in-progress" });
    const completed = await put(cookie, readSetting, { status: "completed" });
    expect(completed.status).toBe(200);
    const expected = {
      progress: { "chapter-1": { "day-1": { "story:read-setting": "completed", "story:read-dialog": "in-progress" } } },
    };
    expect(await completed.json()).toEqual(expected);
    expect(await (await t.request("/api/progress", { cookie })).json()).toEqual(expected);
    expect((await rowsOf(id)).map(({ taskId, status }) => [taskId, status])).toEqual([
      ["story:read-dialog", "in-progress"],
      ["story:read-setting", "completed"],
    ]);
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

describe("day locking", () => {
  it("refuses a day-2 task with 409 until every day-1 task is completed, then records it", async () => {
    const { cookie, id } = await signedInAs();
    const readStory: [string, string, string] = ["chapter-1", "day-2", "story:read-story"];
    const locked = await put(cookie, readStory, { status: "in-progress" });
    expect(locked.status).toBe(409);
    expect(await locked.json()).toEqual({
      error: { code: "DAY_LOCKED", message: "Day 2 is locked. Finish Day 1 first." },
    });

    const dayOne = taskIdsOf("chapter-1", "day-1");
    for (const taskId of dayOne.slice(0, -1))
      await put(cookie, ["chapter-1", "day-1", taskId], { status: "completed" });
    // An in-progress last task is not enough.
    await put(cookie, ["chapter-1", "day-1", dayOne.at(-1)!], { status: "in-progress" });
    expect((await put(cookie, readStory, { status: "in-progress" })).status).toBe(409);
    expect((await rowsOf(id)).filter((row) => row.dayId === "day-2")).toEqual([]);

    await put(cookie, ["chapter-1", "day-1", dayOne.at(-1)!], { status: "completed" });
    const open = await put(cookie, readStory, { status: "in-progress" });
    expect(open.status).toBe(200);
    expect((await open.json()).progress["chapter-1"]["day-2"]).toEqual({ "story:read-story": "in-progress" });
  });

  it("keeps chapter 2's day 6 locked until days 1 to 5 are complete, naming the first unfinished day", async () => {
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
  });

  it("refuses day 7, which has no content yet, as not available", async () => {
    const { cookie, id } = await signedInAs();
    const response = await put(cookie, ["chapter-2", "day-7", "story:read-story"], { status: "in-progress" });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: { code: "DAY_LOCKED", message: "Day 7 is not available yet." } });
    expect(await rowsOf(id)).toEqual([]);
  });

  it.each([
    ["a Tutor", "Tutor"],
    ["an Admin", "Admin"],
  ] as const)("never locks %s out of a day with content", async (_label, role) => {
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

    // Day 7 has no tasks yet, so there is nothing a staff member could record there either.
    const daySeven = await put(cookie, ["chapter-2", "day-7", "story:read-story"], { status: "in-progress" });
    expect(daySeven.status).toBe(400);
    expect((await daySeven.json()).error.message).toBe('Day 7 of chapter-2 has no task "story:read-story".');
  });
});

describe("whose progress", () => {
  it("keeps two learners' progress apart: each reads and writes only their own", async () => {
    const a = await signedInAs();
    const b = await signedInAs();
    await put(a.cookie, ["chapter-1", "day-1", "story:read-setting"], { status: "completed" });
    const aRows = await rowsOf(a.id);

    expect(await (await t.request("/api/progress", { cookie: b.cookie })).json()).toEqual({ progress: {} });

    // A user id in the query string is not how the API is addressed; the session decides.
    const written = await t.request(`${taskPath("chapter-1", "day-1", "story:read-dialog")}?userId=${a.id}`, {
      method: "PUT",
      cookie: b.cookie,
      json: { status: "in-progress" },
    });
    expect(written.status).toBe(200);
    expect(await written.json()).toEqual({
      progress: { "chapter-1": { "day-1": { "story:read-dialog": "in-progress" } } },
    });
    expect((await rowsOf(b.id)).map((row) => row.taskId)).toEqual(["story:read-dialog"]);
    expect(await rowsOf(a.id)).toEqual(aRows);
    expect(await (await t.request("/api/progress", { cookie: a.cookie })).json()).toEqual({
      progress: { "chapter-1": { "day-1": { "story:read-setting": "completed" } } },
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
