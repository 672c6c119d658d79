import { readFileSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import type { Role } from "#course/roles";
import { createNotifications } from "#server/db/notifications";
import { eventOutbox, notice, user } from "#server/db/schema";
import type { ReviewService } from "#server/modules/review/review.service";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { createTestApp } from "#tests/test-app";
import { type RolePlaySubmitted, speakingEvents } from "./speaking.contract";

/**
 * The tutors' queue pushed as it changes (docs/decisions/076): a learner's submission and a tutor's
 * review are events, whose handlers announce the change to every instance; each instance sends a
 * message down the event streams of the staff whose queue is open. Through HTTP into the app, on
 * this file's PostgreSQL, with a second instance that has its own LISTEN connection.
 */
const t = await createTestApp({}, { course: FIXTURE_COURSE });
const otherNotifications = createNotifications(process.env.TEST_DATABASE_URL!, t.logger);
const requestToB = t.requestTo(t.appWith({ notifications: otherNotifications }));
afterAll(() => otherNotifications.close());

const WEBM = readFileSync("tests/fixtures/takes/chromium-2s.webm");
const CHANGES = "/api/speaking/queue/changes";
/** How long a test waits for what another connection brings (a NOTIFY, a stream's next bytes). */
const SOON = { timeout: 10_000 };

async function person(role: Role = "Student") {
  const { user: details, cookie } = await t.signedInUser();
  const [row] = await t.db.update(user).set({ role }).where(eq(user.email, details.email)).returning({ id: user.id });
  return { id: row!.id, email: details.email, cookie };
}

function upload(cookie: string, lineId: string) {
  const form = new FormData();
  form.set("chapterId", "chapter-1");
  form.set("dayId", "day-1");
  form.set("lineId", lineId);
  form.set("take", new File([new Uint8Array(WEBM)], "take.webm", { type: "audio/webm;codecs=opus" }));
  return t.request("/api/speaking/takes", { method: "POST", cookie, body: form });
}

/** A learner's role-play done alone with one take, sent to the tutors: the learner and the submission's ids. */
async function sentRolePlay() {
  const learner = await person();
  const { take } = (await (await upload(learner.cookie, "phrase-apa-khabar")).json()) as { take: { id: string } };
  const sent = await t.request("/api/speaking/days/chapter-1/day-1/role-plays/live-session:greeting-practice", {
    method: "POST",
    cookie: learner.cookie,
  });
  expect(sent.status).toBe(201);
  const { submission } = (await sent.json()) as RolePlaySubmitted;
  return { ...learner, takeId: take.id, submissionId: submission!.id };
}

const review = (request: typeof t.request, cookie: string, sent: { submissionId: string; takeId: string }) =>
  request(`/api/speaking/submissions/${sent.submissionId}/review`, {
    method: "POST",
    cookie,
    json: { ratings: [{ takeId: sent.takeId, rating: 2 }] },
  });

/** An open stream of the queue's changes, read as it comes: its messages' data and its comments. */
async function openChanges(request: typeof t.request, cookie: string) {
  const response = await request(CHANGES, { cookie });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  // Passed on as it comes by a proxy in front (nginx buffers answers unless told).
  expect(response.headers.get("x-accel-buffering")).toBe("no");
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const ended = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
    }
  })();
  const blocks = () => text.split("\n\n").filter(Boolean);
  return {
    messages: () => blocks().filter((block) => block.startsWith("data:")),
    comments: () => blocks().filter((block) => block.startsWith(":")),
    close: () => reader.cancel(),
    ended,
  };
}

/**
 * Every waiting event delivered: by t's dispatcher, or by the second instance's, which the same NOTIFY
 * wakes and which may hold a delivery t's `deliverAll` then skips.
 */
async function delivered() {
  await t.modules.events.deliverAll();
  await expect.poll(async () => (await t.modules.events.stats()).waiting, SOON).toBe(0);
}

/** The events of this name recorded about this submission. */
async function eventsAbout(name: string, submissionId: string) {
  return t.db
    .select({ payload: eventOutbox.payload })
    .from(eventOutbox)
    .where(and(eq(eventOutbox.name, name), sql`${eventOutbox.payload}->>'submissionId' = ${submissionId}`));
}

describe("GET /api/speaking/queue/changes", () => {
  it("tells a tutor on either instance when a learner sends a role-play or chosen lines", async () => {
    const tutor = await person("Tutor");
    const onA = await openChanges(t.request, tutor.cookie);
    const onB = await openChanges(requestToB, tutor.cookie);

    const sent = await sentRolePlay();
    expect(await eventsAbout(speakingEvents.submitted.name, sent.submissionId)).toEqual([
      { payload: { submissionId: sent.submissionId, learnerId: sent.id } },
    ]);
    await t.modules.events.deliverAll();
    await expect.poll(() => onA.messages(), SOON).toEqual(["data: changed"]);
    await expect.poll(() => onB.messages(), SOON).toEqual(["data: changed"]);

    // The other way of sending: lines the learner chose.
    const learner = await person();
    expect((await upload(learner.cookie, "line-kopi-o")).status).toBe(201);
    const lines = await t.request("/api/speaking/days/chapter-1/day-1/sent", {
      method: "POST",
      cookie: learner.cookie,
      json: { lineIds: ["line-kopi-o"] },
    });
    expect(lines.status).toBe(201);
    await t.modules.events.deliverAll();
    await expect.poll(() => onA.messages(), SOON).toHaveLength(2);
    await expect.poll(() => onB.messages(), SOON).toHaveLength(2);
    await Promise.all([onA.close(), onB.close()]);
  });

  it("tells every tutor of a review, so that two tutors' queues stay the same", async () => {
    const [farid, mei] = [await person("Tutor"), await person("Tutor")];
    const faridsQueue = await openChanges(requestToB, farid.cookie);
    const sent = await sentRolePlay();
    await t.modules.events.deliverAll();
    await expect.poll(() => faridsQueue.messages(), SOON).toHaveLength(1);

    expect((await review(t.request, mei.cookie, sent)).status).toBe(201);
    expect(await eventsAbout(speakingEvents.submissionReviewed.name, sent.submissionId)).toEqual([
      { payload: { submissionId: sent.submissionId, learnerId: sent.id, tutorId: mei.id } },
    ]);
    await t.modules.events.deliverAll();
    await expect.poll(() => faridsQueue.messages(), SOON).toEqual(["data: changed", "data: changed"]);
    await faridsQueue.close();
  });

  it("records no review, and tells nobody, when the review's transaction rolls back", async () => {
    const tutor = await person("Tutor");
    const sent = await sentRolePlay();
    const pins = t.modules.review.service;
    const failingPin: ReviewService = {
      ...pins,
      async pin(...args) {
        await pins.pin(...args);
        throw new Error("the pin failed after its write");
      },
    };
    // An app whose dispatcher is never woken: what is delivered here, t's deliverAll delivers.
    const deaf = createNotifications(process.env.TEST_DATABASE_URL!, t.logger);
    await deaf.close();
    const failing = t.requestTo(t.appWith({ review: failingPin, notifications: deaf }));

    expect((await review(failing, tutor.cookie, sent)).status).toBe(500);
    expect(await eventsAbout(speakingEvents.submissionReviewed.name, sent.submissionId)).toEqual([]);
    const reviewedNotices = () =>
      t.db
        .select()
        .from(notice)
        .where(and(eq(notice.userId, sent.id), eq(notice.kind, "takes-reviewed")));
    expect(await reviewedNotices()).toEqual([]);
    const tutorMail = async () =>
      (await t.outbox()).filter((mail) => mail.to === sent.email && mail.subject.startsWith("Your tutor"));
    expect(await tutorMail()).toEqual([]);

    // Reviewed for real: the notice with the review, the email from its event's handler.
    expect((await review(t.request, tutor.cookie, sent)).status).toBe(201);
    expect(await reviewedNotices()).toHaveLength(1);
    await delivered();
    expect((await tutorMail()).map((mail) => mail.subject)).toEqual(["Your tutor has heard your Day 1 recordings"]);
  });

  it("is for the queue's staff only: a visitor gets 401 and a learner 403, as from the queue", async () => {
    const learner = await person();
    for (const path of ["/api/speaking/queue", CHANGES]) {
      const asVisitor = await t.request(path);
      expect([asVisitor.status, ((await asVisitor.json()) as { error: { code: string } }).error.code]).toEqual([
        401,
        "UNAUTHORIZED",
      ]);
      const asLearner = await t.request(path, { cookie: learner.cookie });
      expect([asLearner.status, ((await asLearner.json()) as { error: { code: string } }).error.code]).toEqual([
        403,
        "FORBIDDEN",
      ]);
    }
  });

  it("says it is still there while nothing changes, and lets go of a stream its browser closed", async () => {
    const admin = await person("Admin");
    const quick = t.requestTo(t.appWith({ speakingQueueHeartbeatMs: 20 }));
    const stream = await openChanges(quick, admin.cookie);
    await expect.poll(() => stream.comments().length, SOON).toBeGreaterThanOrEqual(2);
    expect(stream.comments()[0]).toBe(": heartbeat");
    expect(stream.messages()).toEqual([]);

    const open = t.modules.speaking.queueChanges.open;
    const onA = await openChanges(t.request, admin.cookie);
    expect(t.modules.speaking.queueChanges.open).toBe(open + 1);
    await onA.close();
    await expect.poll(() => t.modules.speaking.queueChanges.open, SOON).toBe(open);
    await stream.close();
  });

  // Last: it ends this instance's streams for good.
  it("ends its streams when the instance shuts down, and any opened after, for the browser to connect elsewhere", async () => {
    const tutor = await person("Tutor");
    const stream = await openChanges(t.request, tutor.cookie);
    t.modules.speaking.queueChanges.close();
    await stream.ended;
    const late = await openChanges(t.request, tutor.cookie);
    await late.ended;
    expect(t.modules.speaking.queueChanges.open).toBe(0);
  });
});
