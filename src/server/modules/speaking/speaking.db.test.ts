import { readFileSync } from "node:fs";
import { and, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { Role } from "#course/roles";
import {
  linePractice,
  recording,
  reviewCard,
  speakingSubmission,
  storedFile,
  taskProgress,
  user,
} from "#server/db/schema";
import type { ErrorBody } from "#server/http/errors";
import type { AccountExport } from "#server/modules/account/account.contract";
import { createDatabaseStorage } from "#server/storage/storage";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { createTestApp } from "#tests/test-app";
import type { LineMarked, RolePlaySubmitted, SpeakingDay, SpeakingQueue, TakeSaved } from "./speaking.contract";
import { createSpeakingService } from "./speaking.service";

const t = await createTestApp({}, { course: FIXTURE_COURSE });

const fixture = (name: string) => readFileSync(`tests/fixtures/takes/${name}`);
const WEBM = fixture("chromium-2s.webm");
const MP4_OPUS = fixture("chromium-2s.mp4");
const MP4_AAC = fixture("aac-fragmented-3s.mp4");
const M4A = fixture("aac-5s.m4a");
const TOO_LONG = fixture("chromium-31s.webm");

const DAY_1 = { chapterId: "chapter-1", dayId: "day-1" };
const SHADOWED = ["line-selamat-pagi", "line-nak-minum", "line-kopi-o", "line-terima-kasih"];

async function learner(role: Role = "Student") {
  const { user: details, cookie } = await t.signedInUser();
  const [row] = await t.db.update(user).set({ role }).where(eq(user.email, details.email)).returning({ id: user.id });
  return { id: row!.id, cookie };
}

function upload(
  cookie: string,
  bytes: Uint8Array,
  { lineId = "line-selamat-pagi", dayId = "day-1", type = "audio/webm;codecs=opus", name = "take.webm" } = {},
) {
  const form = new FormData();
  form.set("chapterId", "chapter-1");
  form.set("dayId", dayId);
  form.set("lineId", lineId);
  form.set("take", new File([new Uint8Array(bytes)], name, { type }));
  return t.request("/api/speaking/takes", { method: "POST", cookie, body: form });
}

/** Any of the speaking API's answers, as the tests read them field by field. */
type Answer = TakeSaved &
  LineMarked &
  RolePlaySubmitted &
  SpeakingDay & { error: ErrorBody["error"] } & { quiet: boolean };
const json = async (response: Response) => (await response.json()) as Answer;

async function takeRows(userId: string) {
  return t.db.select().from(recording).where(eq(recording.userId, userId));
}

async function storedTakes(userId: string) {
  const rows = await t.db
    .select({ key: storedFile.key })
    .from(storedFile)
    .where(like(storedFile.key, `takes/${userId}/%`));
  return rows.map((row) => row.key).sort();
}

async function taskStatus(userId: string, taskId: string) {
  const [row] = await t.db
    .select({ status: taskProgress.status })
    .from(taskProgress)
    .where(and(eq(taskProgress.userId, userId), eq(taskProgress.taskId, taskId)));
  return row?.status ?? "not-started";
}

const markLine = (cookie: string, lineId: string, marks: object) =>
  t.request(`/api/speaking/days/chapter-1/day-1/lines/${lineId}`, { method: "PUT", cookie, json: marks });

describe("POST /api/speaking/takes", () => {
  it("stores a take from Chromium's recorder and serves it back only to its owner and staff", async () => {
    const me = await learner();
    const response = await upload(me.cookie, WEBM);
    expect(response.status).toBe(201);
    const { take, completedTasks } = await json(response);
    expect(take).toMatchObject({
      ...DAY_1,
      lineId: "line-selamat-pagi",
      type: "audio/webm",
      byteSize: WEBM.length,
      selfRating: null,
      submissionId: null,
    });
    expect(take.durationMs).toBeGreaterThan(1800);
    expect(take.durationMs).toBeLessThan(2200);
    expect(take.audio).toBe(`/api/speaking/takes/${take.id}`);
    expect(completedTasks).toEqual([]);
    expect(await storedTakes(me.id)).toEqual([`takes/${me.id}/${take.id}.webm`]);

    const served = await t.request(take.audio, { cookie: me.cookie });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("audio/webm");
    expect(served.headers.get("cache-control")).toBe("no-store");
    expect(Buffer.from(await served.arrayBuffer()).equals(WEBM)).toBe(true);

    const part = await t.request(take.audio, { cookie: me.cookie, headers: { range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-99/${WEBM.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(WEBM.subarray(0, 100))).toBe(true);
    const past = await t.request(take.audio, { cookie: me.cookie, headers: { range: `bytes=${WEBM.length}-` } });
    expect(past.status).toBe(416);

    const other = await learner();
    const refused = await t.request(take.audio, { cookie: other.cookie });
    expect(refused.status).toBe(404);
    expect(await json(refused)).toEqual({ error: { code: "NOT_FOUND", message: "There is no such recording." } });
    expect((await t.request(take.audio)).status).toBe(401);
    const tutor = await learner("Tutor");
    expect((await t.request(take.audio, { cookie: tutor.cookie })).status).toBe(200);
  });

  it("takes MP4 as Safari and Chromium record it, and keeps only the latest take of a line", async () => {
    const me = await learner();
    const first = await json(await upload(me.cookie, MP4_AAC, { type: "audio/mp4", name: "take.mp4" }));
    expect(first.take).toMatchObject({ type: "audio/mp4" });
    expect(first.take.durationMs).toBeGreaterThan(3300);
    const second = await json(await upload(me.cookie, MP4_OPUS, { type: "audio/mp4;codecs=opus", name: "take.mp4" }));
    expect(second.take).toMatchObject({ type: "audio/mp4", lineId: "line-selamat-pagi" });
    const third = await json(await upload(me.cookie, M4A, { lineId: "card-pagi", type: "application/octet-stream" }));
    expect(third.take.durationMs).toBeGreaterThan(5000);

    expect((await takeRows(me.id)).map((row) => row.id).sort()).toEqual([second.take.id, third.take.id].sort());
    expect(await storedTakes(me.id)).toEqual(
      [`takes/${me.id}/${second.take.id}.m4a`, `takes/${me.id}/${third.take.id}.m4a`].sort(),
    );
    expect((await t.request(first.take.audio, { cookie: me.cookie })).status).toBe(404);
  });

  it("refuses what is not a whole take of a line the learner may say, and stores nothing", async () => {
    const me = await learner();
    const cases: [Response, number, string][] = [
      [await upload(me.cookie, readFileSync("tests/fixtures/takes/selamat-pagi.wav")), 415, "UNSUPPORTED_MEDIA_TYPE"],
      [await upload(me.cookie, WEBM, { type: "text/html" }), 415, "UNSUPPORTED_MEDIA_TYPE"],
      [await upload(me.cookie, WEBM.subarray(0, WEBM.length - 10)), 400, "TAKE_CUT_OFF"],
      [await upload(me.cookie, MP4_AAC.subarray(0, 5000), { type: "audio/mp4" }), 400, "TAKE_CUT_OFF"],
      [await upload(me.cookie, TOO_LONG), 400, "TAKE_TOO_LONG"],
      [await upload(me.cookie, Buffer.alloc(1024 * 1024 + 1, 1)), 413, "PAYLOAD_TOO_LARGE"],
      [await upload(me.cookie, WEBM, { lineId: "no-such-line" }), 400, "BAD_REQUEST"],
      [await upload(me.cookie, WEBM, { name: "../take.webm" }), 400, "BAD_REQUEST"],
      [await upload(me.cookie, WEBM, { dayId: "day-2", lineId: "card-tandas" }), 409, "DAY_LOCKED"],
    ];
    for (const [response, status, code] of cases) {
      expect({ status: response.status, code: (await json(response)).error.code }).toEqual({ status, code });
    }
    expect(await json(await upload(me.cookie, TOO_LONG))).toEqual({
      error: {
        code: "TAKE_TOO_LONG",
        message: "The recording is longer than 30 seconds. Please record a shorter take.",
      },
    });
    expect(await json(await upload(me.cookie, WEBM, { lineId: "no-such-line" }))).toEqual({
      error: { code: "BAD_REQUEST", message: 'Day 1 has no line "no-such-line" to say.' },
    });
    expect(await takeRows(me.id)).toEqual([]);
    expect(await storedTakes(me.id)).toEqual([]);
  });

  it("removes the oldest takes not sent to a tutor when a learner's takes outgrow their space", async () => {
    const me = await learner();
    const small = createSpeakingService({
      db: t.db,
      course: t.course,
      storage: createDatabaseStorage(t.db, { legacyDir: t.uploadsDir }),
      progress: t.modules.progress.service,
      events: t.modules.events,
      quotaBytes: WEBM.length * 2 + 10,
    });
    const caller = { id: me.id, role: "Student" as const };
    const saved = [];
    for (const lineId of ["card-pagi", "vocab-price", "narration"]) {
      saved.push((await small.saveTake(caller as never, { ...DAY_1, lineId }, WEBM)).take.id);
    }
    expect((await takeRows(me.id)).map((row) => row.id).sort()).toEqual(saved.slice(1).sort());
    expect(await storedTakes(me.id)).toHaveLength(2);
  });
});

describe("a day's shadowing and role-plays", () => {
  it("stores a line's mark once when the device's outbox sends it again, and answers the same line (decision 088)", async () => {
    const me = await learner();
    const first = await markLine(me.cookie, "line-kopi-o", { listened: true, saidAloud: true });
    expect(first.status).toBe(200);
    const rowsAfterFirst = await t.db.select().from(linePractice).where(eq(linePractice.userId, me.id));
    const resent = await markLine(me.cookie, "line-kopi-o", { listened: true, saidAloud: true });
    expect(resent.status).toBe(200);
    expect((await json(resent)).line).toEqual((await json(first)).line);
    // One row, its marks dated by the first send.
    expect(await t.db.select().from(linePractice).where(eq(linePractice.userId, me.id))).toEqual(rowsAfterFirst);
    expect(rowsAfterFirst).toHaveLength(1);
  });

  it("completes the day's shadowing once every line was listened to and recorded or said aloud", async () => {
    const me = await learner();
    for (const lineId of SHADOWED) expect((await markLine(me.cookie, lineId, { listened: true })).status).toBe(200);
    await upload(me.cookie, WEBM, { lineId: "line-selamat-pagi" });
    await markLine(me.cookie, "line-nak-minum", { saidAloud: true });
    await upload(me.cookie, WEBM, { lineId: "line-kopi-o" });
    expect(await taskStatus(me.id, "codebook:listen-shadow")).toBe("not-started");

    const last = await markLine(me.cookie, "line-terima-kasih", { saidAloud: true });
    expect(await json(last)).toEqual({
      line: { lineId: "line-terima-kasih", listened: true, saidAloud: true, take: null },
      completedTasks: ["codebook:listen-shadow"],
    });
    expect(await taskStatus(me.id, "codebook:listen-shadow")).toBe("completed");
    // Once done, it is not reported again.
    expect((await json(await upload(me.cookie, WEBM, { lineId: "line-terima-kasih" }))).completedTasks).toEqual([]);
  });

  it("refuses marks that are not marks, on lines the day does not have", async () => {
    const me = await learner();
    expect((await markLine(me.cookie, "line-kopi-o", {})).status).toBe(400);
    expect((await markLine(me.cookie, "line-kopi-o", { listened: false })).status).toBe(400);
    expect((await markLine(me.cookie, "line-kopi-o", { listened: true, by: "x" })).status).toBe(400);
    expect((await markLine(me.cookie, "nope", { listened: true })).status).toBe(400);
    expect((await json(await t.request("/api/speaking/days/chapter-1/day-1", { cookie: me.cookie }))).lines).toEqual(
      expect.arrayContaining([{ lineId: "line-kopi-o", listened: false, saidAloud: false, take: null }]),
    );
  });

  it("remembers a day's \"I can't speak now\" mode", async () => {
    const me = await learner();
    const day = async () => json(await t.request("/api/speaking/days/chapter-1/day-1", { cookie: me.cookie }));
    expect((await day()).quiet).toBe(false);
    const put = (quiet: unknown) =>
      t.request("/api/speaking/days/chapter-1/day-1/quiet", { method: "PUT", cookie: me.cookie, json: { quiet } });
    expect(await json(await put(true))).toEqual({ quiet: true });
    expect((await day()).quiet).toBe(true);
    expect((await put("yes")).status).toBe(400);
    await put(false);
    expect((await day()).quiet).toBe(false);
  });

  it("sends a role-play done alone to the tutors and completes its task", async () => {
    const me = await learner();
    const submit = (taskId: string) =>
      t.request(`/api/speaking/days/chapter-1/day-1/role-plays/${taskId}`, { method: "POST", cookie: me.cookie });

    const missing = await submit("live-session:greeting-practice");
    expect(missing.status).toBe(409);
    expect(await json(missing)).toEqual({
      error: {
        code: "LINES_MISSING",
        message: 'Record or say aloud every line of the role-play first: "Apa khabar?".',
      },
    });

    const { take } = await json(await upload(me.cookie, WEBM, { lineId: "phrase-apa-khabar" }));
    const sent = await submit("live-session:greeting-practice");
    expect(sent.status).toBe(201);
    const body = await json(sent);
    expect(body.completedTasks).toEqual(["live-session:greeting-practice"]);
    expect(body.submission).toMatchObject({ taskId: "live-session:greeting-practice", reviewedAt: null });
    expect(body.submission?.takes.map((each) => each.id)).toEqual([take.id]);
    expect(await taskStatus(me.id, "live-session:greeting-practice")).toBe("completed");

    // Said aloud, without a take: the task completes and nothing waits for a tutor.
    await markLine(me.cookie, "phrase-teh-tarik", { saidAloud: true });
    const aloud = await json(await submit("live-session:ordering-drink"));
    expect(aloud).toEqual({ submission: null, completedTasks: ["live-session:ordering-drink"] });
    expect(await t.db.select().from(speakingSubmission).where(eq(speakingSubmission.userId, me.id))).toHaveLength(1);

    // A new take of a sent line is a new take; the sent one stays as sent.
    const retake = await json(await upload(me.cookie, WEBM, { lineId: "phrase-apa-khabar" }));
    expect(retake.take.id).not.toBe(take.id);
    const day = await json(await t.request("/api/speaking/days/chapter-1/day-1", { cookie: me.cookie }));
    expect(day.lines.find((line) => line.lineId === "phrase-apa-khabar")?.take?.id).toBe(retake.take.id);
    expect(day.submissions[0]?.takes.map((each) => each.id)).toEqual([take.id]);

    expect((await submit("codebook:listen-shadow")).status).toBe(400);
  });

  it("lets a learner rate their own take, and nobody else's", async () => {
    const me = await learner();
    const { take } = await json(await upload(me.cookie, WEBM));
    const rate = (cookie: string, rating: unknown) =>
      t.request(`/api/speaking/takes/${take.id}/self-rating`, { method: "PUT", cookie, json: { rating } });
    expect((await json(await rate(me.cookie, "close"))).take.selfRating).toBe("close");
    expect((await rate(me.cookie, "great")).status).toBe(400);
    const other = await learner();
    expect((await rate(other.cookie, "good")).status).toBe(404);
    expect((await takeRows(me.id))[0]!.selfRating).toBe("close");
  });
});

describe("a learner's takes and their account", () => {
  it("are in Export My Data and go with the account", async () => {
    const { user: details, cookie } = await t.signedInUser();
    const [row] = await t.db.select({ id: user.id }).from(user).where(eq(user.email, details.email));
    const { take } = await json(await upload(cookie, WEBM));
    const exported = (await (await t.request("/api/account/export", { cookie })).json()) as AccountExport;
    expect(exported.recordings).toEqual([
      expect.objectContaining({
        id: take.id,
        lineId: "line-selamat-pagi",
        audio: `data:audio/webm;base64,${WEBM.toString("base64")}`,
      }),
    ]);

    const deleted = await t.request("/api/account", { method: "DELETE", cookie, json: { password: details.password } });
    expect(deleted.status).toBe(200);
    expect(await takeRows(row!.id)).toEqual([]);
    expect(await storedTakes(row!.id)).toEqual([]);
  });
});

describe("a tutor who listens", () => {
  /** A learner (first name Nur) who did the greetings role-play alone with one take, and that take. */
  async function sentRolePlay(role: Role = "Student") {
    const { user: details, cookie } = await t.signedInUser({ firstName: "Nur", lastName: "Aisyah" });
    const [row] = await t.db.update(user).set({ role }).where(eq(user.email, details.email)).returning({ id: user.id });
    const { take } = await json(await upload(cookie, WEBM, { lineId: "phrase-apa-khabar" }));
    const sent = await json(
      await t.request("/api/speaking/days/chapter-1/day-1/role-plays/live-session:greeting-practice", {
        method: "POST",
        cookie,
      }),
    );
    return { id: row!.id, email: details.email, cookie, take, submissionId: sent.submission!.id };
  }

  const review = (cookie: string, submissionId: string, ratings: unknown) =>
    t.request(`/api/speaking/submissions/${submissionId}/review`, { method: "POST", cookie, json: { ratings } });

  it("finds what a learner sent in the queue, rates it, pins a weak line into their review and tells them", async () => {
    const learnerOne = await sentRolePlay();
    const tutor = await learner("Tutor");
    const queue = (await (await t.request("/api/speaking/queue", { cookie: tutor.cookie })).json()) as SpeakingQueue;
    const entry = queue.waiting.find((each) => each.id === learnerOne.submissionId);
    expect(entry).toMatchObject({
      learner: { id: learnerOne.id, name: "Nur Aisyah" },
      chapterId: "chapter-1",
      dayId: "day-1",
      dayNumber: 1,
      title: "Greetings",
      takes: 1,
    });
    // Oldest first.
    const times = queue.waiting.map((each) => new Date(each.submittedAt).getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));

    const detail = await (
      await t.request(`/api/speaking/submissions/${learnerOne.submissionId}`, { cookie: tutor.cookie })
    ).json();
    expect(detail.submission.lines).toEqual([
      {
        take: expect.objectContaining({ id: learnerOne.take.id, lineId: "phrase-apa-khabar" }),
        malay: "Apa khabar?",
        english: "How are you?",
        model: "/media/course/chapter-1/day-1/phrase-apa-khabar.mp3",
      },
    ]);
    // The tutor hears the take.
    expect((await t.request(learnerOne.take.audio, { cookie: tutor.cookie })).status).toBe(200);

    const mailBefore = (await t.outbox()).length;
    const reviewed = await review(tutor.cookie, learnerOne.submissionId, [
      { takeId: learnerOne.take.id, rating: 2, comment: "Lift the end: it is a question." },
    ]);
    expect(reviewed.status).toBe(201);
    const queueAfter = (await (
      await t.request("/api/speaking/queue", { cookie: tutor.cookie })
    ).json()) as SpeakingQueue;
    expect(queueAfter.waiting.map((each) => each.id)).not.toContain(learnerOne.submissionId);

    // The learner sees the rating on the day, has the line pinned in review, and is told.
    const day = await json(await t.request("/api/speaking/days/chapter-1/day-1", { cookie: learnerOne.cookie }));
    expect(day.submissions[0]).toMatchObject({ reviewedAt: expect.any(String) });
    expect(day.submissions[0]!.takes[0]).toMatchObject({
      tutorRating: 2,
      tutorComment: "Lift the end: it is a question.",
    });
    const pinned = await t.db
      .select({ phraseId: reviewCard.phraseId, pinnedBy: reviewCard.pinnedBy })
      .from(reviewCard)
      .where(eq(reviewCard.userId, learnerOne.id));
    expect(pinned.length).toBeGreaterThan(0);
    expect(pinned.every((card) => card.phraseId === "phrase-apa-khabar" && card.pinnedBy === tutor.id)).toBe(true);
    // The notice comes with the review; the email is its event's handler's (t.outbox delivers first).
    const notices = await (await t.request("/api/speaking/notices", { cookie: learnerOne.cookie })).json();
    expect(notices).toMatchObject({
      unread: 1,
      notices: [
        {
          kind: "takes-reviewed",
          chapterId: "chapter-1",
          dayId: "day-1",
          dayNumber: 1,
          title: "Greetings",
          readAt: null,
        },
      ],
    });
    const read = await (
      await t.request("/api/speaking/notices/read", { method: "POST", cookie: learnerOne.cookie })
    ).json();
    expect(read.unread).toBe(0);
    const mail = (await t.outbox()).slice(mailBefore);
    expect(mail).toEqual([
      expect.objectContaining({ to: learnerOne.email, subject: "Your tutor has heard your Day 1 recordings" }),
    ]);
    expect(mail[0]!.text).toContain("/chapter-1/day-1/live-session");

    // Reviewed once: a second review changes nothing.
    const again = await review(tutor.cookie, learnerOne.submissionId, [{ takeId: learnerOne.take.id, rating: 5 }]);
    expect(again.status).toBe(409);
    expect((await takeRows(learnerOne.id)).find((row) => row.id === learnerOne.take.id)!.tutorRating).toBe(2);
  });

  it("refuses a review that leaves a line out or rates what is not in the submission, writing nothing", async () => {
    const sent = await sentRolePlay();
    const tutor = await learner("Tutor");
    const cases: unknown[] = [
      [],
      [{ takeId: sent.take.id, rating: 6 }],
      [{ takeId: sent.take.id, rating: 0 }],
      [{ takeId: sent.take.id, rating: 2.5 }],
      [{ takeId: crypto.randomUUID(), rating: 3 }],
      [
        { takeId: sent.take.id, rating: 3 },
        { takeId: sent.take.id, rating: 4 },
      ],
      [{ takeId: sent.take.id, rating: 3, comment: "x".repeat(1001) }],
    ];
    for (const ratings of cases) expect((await review(tutor.cookie, sent.submissionId, ratings)).status).toBe(400);
    expect((await review(tutor.cookie, crypto.randomUUID(), [{ takeId: sent.take.id, rating: 3 }])).status).toBe(404);
    const [row] = await t.db.select().from(speakingSubmission).where(eq(speakingSubmission.id, sent.submissionId));
    expect(row!.reviewedAt).toBeNull();
    expect((await takeRows(sent.id))[0]!.tutorRating).toBeNull();
  });

  it("queues the lines a learner chooses to send, and refuses a line without a take to send", async () => {
    const me = await learner();
    await upload(me.cookie, WEBM, { lineId: "line-kopi-o" });
    await upload(me.cookie, WEBM, { lineId: "card-pagi" });
    const send = (lineIds: unknown) =>
      t.request("/api/speaking/days/chapter-1/day-1/sent", { method: "POST", cookie: me.cookie, json: { lineIds } });
    expect((await send(["line-kopi-o", "line-nak-minum"])).status).toBe(409);
    expect((await send([])).status).toBe(400);
    expect(await t.db.select().from(speakingSubmission).where(eq(speakingSubmission.userId, me.id))).toEqual([]);
    const sent = await send(["line-kopi-o", "card-pagi"]);
    expect(sent.status).toBe(201);
    const { submission } = (await sent.json()) as {
      submission: { id: string; taskId: null; takes: { lineId: string }[] };
    };
    expect(submission.taskId).toBeNull();
    expect(submission.takes.map((take) => take.lineId).sort()).toEqual(["card-pagi", "line-kopi-o"]);
    const tutor = await learner("Tutor");
    const queue = (await (await t.request("/api/speaking/queue", { cookie: tutor.cookie })).json()) as SpeakingQueue;
    expect(queue.waiting.find((each) => each.id === submission.id)).toMatchObject({ title: "Lines", takes: 2 });
    // Sent once: the same takes cannot be sent again.
    expect((await send(["line-kopi-o"])).status).toBe(409);
  });

  it("shows a Tutor only learners' submissions, and sends no email to a learner who turned emails off", async () => {
    const fromStaff = await sentRolePlay("Admin");
    const tutor = await learner("Tutor");
    const queue = (await (await t.request("/api/speaking/queue", { cookie: tutor.cookie })).json()) as SpeakingQueue;
    expect(queue.waiting.map((each) => each.id)).not.toContain(fromStaff.submissionId);
    expect(
      (await t.request(`/api/speaking/submissions/${fromStaff.submissionId}`, { cookie: tutor.cookie })).status,
    ).toBe(403);

    const quiet = await sentRolePlay();
    await t.db.update(user).set({ emailNotifications: false }).where(eq(user.id, quiet.id));
    const mailBefore = (await t.outbox()).length;
    expect((await review(tutor.cookie, quiet.submissionId, [{ takeId: quiet.take.id, rating: 4 }])).status).toBe(201);
    expect((await t.outbox()).slice(mailBefore)).toEqual([]);
    // Rated 3 or more: nothing pinned.
    expect(await t.db.select().from(reviewCard).where(eq(reviewCard.userId, quiet.id))).toEqual([]);
  });
});
