import { randomUUID } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Given } from "#course/exercise-schema";
import type { Role } from "#course/roles";
import { answer, dayCompletion, taskProgress, user as userTable } from "#server/db/schema";
import { allAnswered, completeDayTasks, sendAs } from "#tests/complete-day";
import { DAY_ONE_PRACTICE, FIXTURE_COURSE } from "#tests/fixtures/course";
import { createTestApp } from "#tests/test-app";
import { answerResponseSchema, practiceProgressSchema } from "./answers.contract";

const t = await createTestApp({}, { course: FIXTURE_COURSE });

const PRACTICE = "codebook:practice";
const DAY_ONE = { chapterId: "chapter-1", dayId: "day-1", taskId: PRACTICE };
const DAY_TWO = { chapterId: "chapter-1", dayId: "day-2", taskId: PRACTICE };

async function signedInAs(role: Role = "Student") {
  const session = await t.signedInUser();
  await t.db.update(userTable).set({ role }).where(eq(userTable.email, session.user.email));
  const [row] = await t.db.select().from(userTable).where(eq(userTable.email, session.user.email));
  return { ...session, id: row!.id };
}

/** An answer to an item of day 1's practice set (or of `at`), with a new clientId. */
function body(itemId: string, given: unknown, at: Partial<typeof DAY_ONE> = {}) {
  return { clientId: randomUUID(), ...DAY_ONE, ...at, itemId, given };
}

const post = (cookie: string | undefined, json: unknown) => t.request("/api/answers", { method: "POST", cookie, json });

/** Posts an answer, expects 200, and checks the body against the contract. */
async function answerOk(cookie: string, json: unknown) {
  const response = await post(cookie, json);
  expect(response.status, await response.clone().text()).toBe(200);
  return answerResponseSchema.parse(await response.json());
}

async function answerRows(userId?: string) {
  return t.db
    .select()
    .from(answer)
    .where(userId ? eq(answer.userId, userId) : sql`true`)
    .orderBy(answer.answeredAt, answer.id);
}

async function allAnswerCount() {
  const [row] = await t.db.select({ n: count() }).from(answer);
  return row!.n;
}

async function statusOf(userId: string, { chapterId, dayId, taskId }: typeof DAY_ONE) {
  const [row] = await t.db
    .select({ status: taskProgress.status, updatedAt: sql<string>`${taskProgress.updatedAt}::text` })
    .from(taskProgress)
    .where(
      and(
        eq(taskProgress.userId, userId),
        eq(taskProgress.chapterId, chapterId),
        eq(taskProgress.sectionId, dayId),
        eq(taskProgress.taskId, taskId),
      ),
    );
  return row;
}

/** Everything an answer could write, for "nothing changed". */
async function snapshot() {
  const [answers, progress, completions] = await Promise.all([
    t.db.select().from(answer).orderBy(answer.id),
    t.db
      .select({ row: sql<string>`${taskProgress}::text`, updatedAt: sql<string>`${taskProgress.updatedAt}::text` })
      .from(taskProgress)
      .orderBy(taskProgress.userId, taskProgress.sectionId, taskProgress.taskId),
    t.db.select().from(dayCompletion).orderBy(dayCompletion.userId, dayCompletion.dayId),
  ]);
  return { answers, progress, completions };
}

/** The right answer of every item of day 1's set. */
const RIGHT: Record<string, Given> = {
  "what-alex-ordered": { choiceId: "kopi-o" },
  "hear-greeting": { choiceId: "good-morning" },
  "build-order": { tileIds: ["saya", "nak", "kopi-o", "satu"] },
  "type-order": { text: "saya mahu kopi o" },
  "type-thanks": { text: "TERIMA KASIH" },
  "match-greetings": {
    pairs: [
      { malay: "sama-sama", english: "sama-sama" },
      { malay: "pagi", english: "pagi" },
      { malay: "terima-kasih", english: "terima-kasih" },
    ],
  },
  "hear-price": { text: "rm7.5" },
  "say-price": { choiceId: "right" },
  "reply-drink": { choiceId: "kopi-o" },
  "reply-order": { text: "kopi-o satu" },
};

const audio = (id: string) => `/media/course/chapter-1/day-1/${id}.mp3`;

describe("POST /api/answers", () => {
  it("needs a session, and stores nothing", async () => {
    const before = await allAnswerCount();
    const response = await post(undefined, body("what-alex-ordered", { choiceId: "kopi-o" }));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: "UNAUTHORIZED", message: "Please sign in to continue." } });
    expect(await allAnswerCount()).toBe(before);
  });

  it.each([
    ["comprehension", "what-alex-ordered", { choiceId: "kopi-o" }, "right"],
    ["comprehension", "what-alex-ordered", { choiceId: "teh-tarik" }, "wrong"],
    ["listen-choose", "hear-greeting", { choiceId: "good-morning" }, "right"],
    ["listen-choose", "hear-greeting", { choiceId: "thank-you" }, "wrong"],
    ["build-sentence", "build-order", { tileIds: ["saya", "mahu", "kopi-o", "satu"] }, "right"],
    ["build-sentence", "build-order", { tileIds: ["kopi-o", "saya", "nak", "satu"] }, "wrong"],
    ["type-malay", "type-order", { text: "Saya nak kopi-O" }, "right"],
    ["type-malay", "type-order", { text: "saya nak kopi" }, "almost"],
    ["type-malay", "type-order", { text: "saya nak teh" }, "wrong"],
    ["type-heard", "type-thanks", { text: "trima kasi" }, "almost"],
    ["type-heard", "type-thanks", { text: "Térima kasih!" }, "right"],
    ["match-pairs", "match-greetings", RIGHT["match-greetings"], "right"],
    [
      "match-pairs",
      "match-greetings",
      {
        pairs: [
          { malay: "sama-sama", english: "pagi" },
          { malay: "pagi", english: "sama-sama" },
          { malay: "terima-kasih", english: "terima-kasih" },
        ],
      },
      "wrong",
    ],
    ["type-price", "hear-price", { text: "RM 7.50" }, "right"],
    ["type-price", "hear-price", { text: "7.50" }, "right"],
    ["type-price", "hear-price", { text: "RM 7.05" }, "wrong"],
    ["choose-price", "say-price", { choiceId: "right" }, "right"],
    ["choose-price", "say-price", { choiceId: "five-seventy" }, "wrong"],
    ["reply-choose", "reply-drink", { choiceId: "kopi-o" }, "right"],
    ["reply-choose", "reply-drink", { choiceId: "thanks" }, "wrong"],
    ["reply-type", "reply-order", { text: "Saya mahu kopi-O satu" }, "right"],
    ["reply-type", "reply-order", { text: "terima kasih" }, "wrong"],
  ] as const)("grades %s %s %j as %s, and stores it", async (_kind, itemId, given, result) => {
    const { cookie, id } = await signedInAs();
    const sent = body(itemId, given);
    const answered = await answerOk(cookie, sent);
    expect(answered.result).toBe(result);
    expect(answered.taskCompleted).toBe(false);
    const rows = await answerRows(id);
    expect(rows).toEqual([
      {
        id: expect.any(String),
        userId: id,
        clientId: sent.clientId,
        ...DAY_ONE,
        itemId,
        given,
        correct: result === "right",
        answeredAt: expect.any(Date),
      },
    ]);
    // Answering opens the task: in progress, not completed by one item.
    expect((await statusOf(id, DAY_ONE))?.status).toBe("in-progress");
  });

  it("answers the right answer for feedback: its text, its form, its clip, why, and the accepted forms", async () => {
    const { cookie } = await signedInAs();
    expect((await answerOk(cookie, body("what-alex-ordered", { choiceId: "milo-ais" }))).correct).toEqual({
      text: "Black coffee with sugar",
      answer: { choiceId: "kopi-o" },
      audio: audio("line-kopi-o"),
      explain: "Kopi-O is black coffee with sugar: O means no milk.",
      accepted: [],
    });
    expect((await answerOk(cookie, body("type-order", { text: "saya mahu kopi" }))).correct).toEqual({
      text: "Saya mahu kopi-O.",
      answer: { text: "Saya mahu kopi-O." },
      audio: null,
      explain: null,
      accepted: ["Saya nak kopi-O.", "Saya mahu kopi-O."],
    });
    expect((await answerOk(cookie, body("build-order", { tileIds: ["teh"] }))).correct).toEqual({
      text: "Saya nak kopi-O satu.",
      answer: { tileIds: ["saya", "nak", "kopi-o", "satu"] },
      audio: audio("line-kopi-o"),
      explain: null,
      accepted: ["Saya nak kopi-O satu.", "Saya mahu kopi-O satu."],
    });
    expect((await answerOk(cookie, body("hear-price", { text: "8" }))).correct).toEqual({
      text: "RM 7.50",
      answer: { text: "RM 7.50" },
      audio: audio("vocab-price"),
      explain: null,
      accepted: [],
    });
    expect((await answerOk(cookie, body("match-greetings", RIGHT["match-greetings"]))).correct.text).toBe(
      "Selamat pagi = Good morning; Terima kasih = Thank you; Sama-sama = You're welcome",
    );
  });

  it("takes a one-letter slip in a long typed answer as right, stored right, and says how it is written", async () => {
    const { cookie, id } = await signedInAs();
    const sent = body("type-order", { text: "saya nek kopi-o" });
    const answered = await answerOk(cookie, sent);
    expect(answered).toMatchObject({ result: "right", typo: true, correct: { text: "Saya nak kopi-O." } });
    expect((await answerRows(id)).map((row) => row.correct)).toEqual([true]);
    // A resend is told the same, slip and all.
    expect(await answerOk(cookie, sent)).toEqual(answered);
    // Typed exactly: no slip to tell.
    expect(await answerOk(cookie, body("type-order", { text: "saya nak kopi o" }))).toMatchObject({
      result: "right",
      typo: false,
    });
  });

  it("stores a resend once and answers it as the first time, even sent again at once", async () => {
    const { cookie, id } = await signedInAs();
    const sent = body("type-order", { text: "saya nak kopi" });
    const first = await answerOk(cookie, sent);
    expect(first.result).toBe("almost");
    expect(await answerOk(cookie, sent)).toEqual(first);
    // A resend is the same answer: what it carries this time is not graded again.
    expect(await answerOk(cookie, { ...sent, given: { text: "Saya nak kopi-O." } })).toEqual(first);
    expect(await answerOk(cookie, { ...sent, clientId: sent.clientId.toUpperCase() })).toEqual(first);
    const together = body("what-alex-ordered", { choiceId: "kopi-o" });
    const answers = await Promise.all(Array.from({ length: 5 }, () => answerOk(cookie, together)));
    expect(new Set(answers.map((each) => JSON.stringify(each))).size).toBe(1);
    expect((await answerRows(id)).map((row) => row.clientId)).toEqual([sent.clientId, together.clientId]);
  });

  it("refuses a clientId sent before for another item (409), and stores nothing", async () => {
    const { cookie, id } = await signedInAs();
    const sent = body("what-alex-ordered", { choiceId: "kopi-o" });
    await answerOk(cookie, sent);
    const response = await post(cookie, { ...sent, itemId: "say-price", given: { choiceId: "right" } });
    expect(response.status).toBe(409);
    expect((await response.json()).error.code).toBe("CLIENT_ID_REUSED");
    expect(await answerRows(id)).toHaveLength(1);
  });

  it("keeps another user's answer with the same clientId apart", async () => {
    const first = await signedInAs();
    const second = await signedInAs();
    const clientId = randomUUID();
    const right = await answerOk(first.cookie, { ...body("say-price", { choiceId: "right" }), clientId });
    const wrong = await answerOk(second.cookie, { ...body("say-price", { choiceId: "seventy-five" }), clientId });
    expect([right.result, wrong.result]).toEqual(["right", "wrong"]);
    expect((await answerRows(first.id)).map((row) => [row.clientId, row.correct])).toEqual([[clientId, true]]);
    expect((await answerRows(second.id)).map((row) => [row.clientId, row.correct])).toEqual([[clientId, false]]);
  });

  it.each([
    ["chapter", { chapterId: "chapter-9" }, 'There is no chapter "chapter-9".'],
    ["day", { dayId: "day-9" }, '"chapter-1" has no day "day-9".'],
    ["task", { taskId: "codebook:quiz" }, 'Day 1 of chapter-1 has no task "codebook:quiz".'],
    [
      "task without a practice set",
      { taskId: "codebook:review-vocab" },
      '"codebook:review-vocab" of day 1 is not a practice set.',
    ],
    [
      "item",
      { itemId: "what-alex-drank" },
      'The practice set "codebook:practice" of day 1 has no item "what-alex-drank".',
    ],
  ])("refuses an unknown %s with a 400 naming it, and stores nothing", async (_what, change, message) => {
    const { cookie } = await signedInAs();
    const before = await snapshot();
    const response = await post(cookie, { ...body("what-alex-ordered", { choiceId: "kopi-o" }), ...change });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "BAD_REQUEST", message } });
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ["text for a choice", body("what-alex-ordered", { text: "kopi" }), "given"],
    ["a choice the item does not have", body("what-alex-ordered", { choiceId: "kopi" }), "given.choiceId"],
    ["a choice for typed text", body("type-order", { choiceId: "kopi-o" }), "given"],
    ["a tile used twice", body("build-order", { tileIds: ["saya", "saya"] }), "given.tileIds.1"],
    ["an unknown tile", body("build-order", { tileIds: ["saya", "kami"] }), "given.tileIds.1"],
    ["pairs missing one", body("match-greetings", { pairs: [{ malay: "pagi", english: "pagi" }] }), "given.pairs"],
    ["tile ids for pairs", body("match-greetings", { tileIds: ["pagi"] }), "given"],
    ["an empty text", body("type-thanks", { text: "  " }), "given.text"],
    ["an answer of no form", body("type-thanks", { words: "terima kasih" }), "given"],
    ["no answer", { ...body("type-thanks", null), given: undefined }, "given"],
    ["a clientId that is not a UUID", { ...body("type-thanks", { text: "x" }), clientId: "answer-1" }, "clientId"],
    ["a key the API does not take", { ...body("type-thanks", { text: "x" }), correct: true }, ""],
    ["a user id", { ...body("type-thanks", { text: "x" }), userId: "someone-else" }, ""],
  ])("refuses %s with a 400 naming the field, and stores nothing", async (_what, sent, path) => {
    const { cookie } = await signedInAs();
    const before = await snapshot();
    const response = await post(cookie, sent);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.issues.map((issue: { path: string }) => issue.path)).toContain(path);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses a learner's locked day with 409 DAY_LOCKED and stores nothing; staff answer any day", async () => {
    const { cookie } = await signedInAs();
    const before = await snapshot();
    const locked = await post(cookie, body("where", { choiceId: "toilet" }, DAY_TWO));
    expect(locked.status).toBe(409);
    expect(await locked.json()).toEqual({
      error: { code: "DAY_LOCKED", message: "Day 2 is locked. Finish Day 1 first." },
    });
    // The last day's review quiz waits for every day before it too.
    const lastDay = { chapterId: "chapter-2", dayId: "day-6", taskId: "review:task-1" };
    const lastLocked = await post(cookie, body("tipping", { choiceId: "no" }, lastDay));
    expect(lastLocked.status).toBe(409);
    expect((await lastLocked.json()).error.message).toBe("Day 6 is locked. Finish Day 1 first.");
    expect(await snapshot()).toEqual(before);

    // Staff may answer for themselves, like learners, and are never locked out.
    const tutor = await signedInAs("Tutor");
    const answered = await answerOk(tutor.cookie, body("where", { choiceId: "toilet" }, DAY_TWO));
    expect(answered.result).toBe("right");
    expect((await answerRows(tutor.id)).map((row) => [row.dayId, row.itemId, row.correct])).toEqual([
      ["day-2", "where", true],
    ]);
  });

  it("completes the task only once every item has been answered right, a wrong answer coming back later", async () => {
    const { cookie, id } = await signedInAs();
    const items = DAY_ONE_PRACTICE.items.map((item) => item.id);
    const [first, ...rest] = items;
    // The first item is answered wrong, then almost, then every other item right: not complete yet.
    expect((await answerOk(cookie, body(first!, { choiceId: "teh-tarik" }))).taskCompleted).toBe(false);
    for (const itemId of rest) {
      const answered = await answerOk(cookie, body(itemId, RIGHT[itemId]));
      expect(answered, itemId).toMatchObject({ result: "right", taskCompleted: false });
    }
    expect((await statusOf(id, DAY_ONE))?.status).toBe("in-progress");
    const resumed = practiceProgressSchema.parse(
      await (await t.request("/api/answers/chapter-1/day-1/codebook:practice", { cookie })).json(),
    );
    expect(resumed).toEqual({ answeredRight: rest, taskCompleted: false });

    // The item comes back later in the set, and is answered right: the task is completed.
    const last = await answerOk(cookie, body(first!, RIGHT[first!]));
    expect(last).toMatchObject({ result: "right", taskCompleted: true });
    const completed = await statusOf(id, DAY_ONE);
    expect(completed?.status).toBe("completed");
    expect(await (await t.request("/api/answers/chapter-1/day-1/codebook:practice", { cookie })).json()).toEqual({
      answeredRight: items,
      taskCompleted: true,
    });

    // A wrong answer afterwards is stored, but never moves the task back.
    expect(await answerOk(cookie, body(first!, { choiceId: "milo-ais" }))).toMatchObject({
      result: "wrong",
      taskCompleted: true,
    });
    expect(await statusOf(id, DAY_ONE)).toEqual(completed);
    expect(await answerRows(id)).toHaveLength(items.length + 2);
    // The rest of day 1 is not done: the day is not complete, and day 2 stays locked.
    expect(await t.db.select().from(dayCompletion).where(eq(dayCompletion.userId, id))).toEqual([]);
    expect((await post(cookie, body("where", { choiceId: "toilet" }, DAY_TWO))).status).toBe(409);
  });

  it("records the day complete when the set was its last task, and the next day opens", async () => {
    const { cookie, id } = await signedInAs();
    // Every other task of the day first, each the way a learner completes it (lines said, role-plays sent).
    const others = await completeDayTasks(sendAs(t, cookie), FIXTURE_COURSE, "chapter-1", "day-1", {
      except: [PRACTICE],
    });
    expect(others).toEqual(allAnswered(others));
    for (const item of DAY_ONE_PRACTICE.items) await answerOk(cookie, body(item.id, RIGHT[item.id]));
    expect(
      await t.db
        .select({ chapterId: dayCompletion.chapterId, dayId: dayCompletion.dayId })
        .from(dayCompletion)
        .where(eq(dayCompletion.userId, id)),
    ).toEqual([{ chapterId: "chapter-1", dayId: "day-1" }]);
    expect((await answerOk(cookie, body("where", { choiceId: "toilet" }, DAY_TWO))).result).toBe("right");
  });
});

describe("GET /api/answers/:chapterId/:dayId/:taskId", () => {
  const path = "/api/answers/chapter-1/day-1/codebook:practice";

  it("needs a session", async () => {
    expect((await t.request(path)).status).toBe(401);
  });

  it("answers the items this learner has answered right, in the set's order, and no one else's", async () => {
    const { cookie } = await signedInAs();
    const other = await signedInAs();
    expect(await (await t.request(path, { cookie })).json()).toEqual({ answeredRight: [], taskCompleted: false });
    await answerOk(cookie, body("say-price", { choiceId: "right" }));
    await answerOk(cookie, body("type-thanks", { text: "trima kasi" }));
    await answerOk(cookie, body("hear-greeting", { choiceId: "good-morning" }));
    await answerOk(other.cookie, body("build-order", RIGHT["build-order"]));
    const response = await t.request(path, { cookie });
    expect(response.status).toBe(200);
    expect(practiceProgressSchema.parse(await response.json())).toEqual({
      answeredRight: ["hear-greeting", "say-price"],
      taskCompleted: false,
    });
  });

  it.each([
    ["/api/answers/chapter-9/day-1/codebook:practice", 'There is no chapter "chapter-9".'],
    ["/api/answers/chapter-1/day-9/codebook:practice", '"chapter-1" has no day "day-9".'],
    ["/api/answers/chapter-1/day-1/codebook:quiz", 'Day 1 of chapter-1 has no task "codebook:quiz".'],
    ["/api/answers/chapter-1/day-1/story:read-setting", '"story:read-setting" of day 1 is not a practice set.'],
  ])("refuses %s with a 400 naming what is unknown", async (unknown, message) => {
    const { cookie } = await signedInAs();
    const response = await t.request(unknown, { cookie });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { code: "BAD_REQUEST", message } });
  });
});

describe("a practice set's task and bare progress writes", () => {
  const practicePath = "/api/progress/chapter-1/day-1/codebook:practice";

  it("refuses a learner's bare completed (409 ANSWER_REQUIRED) and changes nothing; in progress is allowed", async () => {
    const { cookie, id } = await signedInAs();
    await answerOk(cookie, body("say-price", { choiceId: "right" }));
    const before = await snapshot();
    const refused = await t.request(practicePath, { method: "PUT", cookie, json: { status: "completed" } });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: { code: "ANSWER_REQUIRED", message: "This task is completed by answering its practice set." },
    });
    expect(await snapshot()).toEqual(before);

    const fresh = await signedInAs();
    const opened = await t.request(practicePath, {
      method: "PUT",
      cookie: fresh.cookie,
      json: { status: "in-progress" },
    });
    expect(opened.status).toBe(200);
    expect((await statusOf(fresh.id, DAY_ONE))?.status).toBe("in-progress");
    expect((await statusOf(id, DAY_ONE))?.status).toBe("in-progress");
  });

  it("refuses staff's bare completed of their own practice task too", async () => {
    const tutor = await signedInAs("Tutor");
    const refused = await t.request(practicePath, {
      method: "PUT",
      cookie: tutor.cookie,
      json: { status: "completed" },
    });
    expect(refused.status).toBe(409);
    expect(await statusOf(tutor.id, DAY_ONE)).toBeUndefined();
  });

  it("lets a tutor complete a learner's practice task (the override), which answers then never move back", async () => {
    const learner = await signedInAs();
    const tutor = await signedInAs("Tutor");
    const response = await t.request(`/api/users/${learner.id}/progress/chapter-1/day-1/codebook:practice`, {
      method: "PUT",
      cookie: tutor.cookie,
      json: { status: "completed" },
    });
    expect(response.status).toBe(200);
    expect((await statusOf(learner.id, DAY_ONE))?.status).toBe("completed");
    expect(await answerOk(learner.cookie, body("say-price", { choiceId: "seventy-five" }))).toMatchObject({
      result: "wrong",
      taskCompleted: true,
    });
    expect((await statusOf(learner.id, DAY_ONE))?.status).toBe("completed");
  });
});

describe("a learner's answers and their account", () => {
  it("are in Export My Data, and go when the account is deleted", async () => {
    const { cookie, id, user } = await signedInAs();
    const right = body("say-price", { choiceId: "right" });
    const almost = body("type-thanks", { text: "trima kasi" });
    await answerOk(cookie, right);
    await answerOk(cookie, almost);
    const stranger = await signedInAs();
    await answerOk(stranger.cookie, body("say-price", { choiceId: "right" }));

    const exported = await t.request("/api/account/export", { cookie });
    expect(exported.status).toBe(200);
    const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/);
    expect((await exported.json()).answers).toEqual([
      { clientId: right.clientId, ...DAY_ONE, itemId: "say-price", given: right.given, correct: true, answeredAt: iso },
      {
        clientId: almost.clientId,
        ...DAY_ONE,
        itemId: "type-thanks",
        given: almost.given,
        correct: false,
        answeredAt: iso,
      },
    ]);

    const deleted = await t.request("/api/account", { method: "DELETE", cookie, json: { password: user.password } });
    expect(deleted.status).toBe(200);
    expect(await answerRows(id)).toEqual([]);
    expect(await answerRows(stranger.id)).toHaveLength(1);
  });
});
