import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { and, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import { callRating, callRecord, reviewCard, taskProgress, tutorFeedback } from "#server/db/schema";
import type { CallRoom, CallServerMessage, SessionBrief, SessionRecord } from "#server/modules/calls/calls.contract";
import type { ReviewRound } from "#server/modules/review/review.contract";
import { bookedSession, insertBooking, personAs } from "./booked-session";
import { createTestApp, ORIGIN } from "./test-app";

/**
 * A session's record through HTTP into the app on a real PostgreSQL: the tutor rates the day's
 * role-play phrases and writes notes in the room, with a brief of what the learner struggles with;
 * ending the session completes each fully rated role-play, pins lines rated 1-2 into the learner's
 * review, makes the notes the day's feedback and tells the learner, who then sees it all.
 */
const t = await createTestApp();
const server = serve({
  fetch: t.app.fetch,
  port: 0,
  hostname: "127.0.0.1",
  websocket: { server: new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 }) },
});
const sockets: WebSocket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await new Promise((resolve) => server.close(resolve));
});

const GREETINGS = "live-session:greeting-practice";
const GREETING_LINES = [
  "greeting-morning",
  "greeting-afternoon",
  "greeting-evening",
  "greeting-ask",
  "greeting-answer",
  "greeting-slower",
];
const ORDERING = "live-session:ordering-drink";

const person = (role?: "Student" | "Tutor" | "Admin") => personAs(t, role);
const session = (inMs?: number) => bookedSession(t, inMs);

const rate = (bookingId: string, cookie: string, json: unknown) =>
  t.request(`/api/calls/${bookingId}/ratings`, { method: "PUT", cookie, json });
const notes = (bookingId: string, cookie: string, text: unknown) =>
  t.request(`/api/calls/${bookingId}/notes`, { method: "PUT", cookie, json: { notes: text } });
const end = (bookingId: string, cookie: string) => t.request(`/api/calls/${bookingId}/end`, { method: "POST", cookie });
const roomOf = async (bookingId: string, cookie: string) =>
  (await (await t.request(`/api/calls/${bookingId}`, { cookie })).json()) as CallRoom;
const body = async <T>(response: Response, status = 200) => {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
};

const ratingIn = (record: SessionRecord, taskId: string, lineId: string) =>
  record.rolePlays.find((card) => card.taskId === taskId)?.phrases.find((phrase) => phrase.id === lineId)?.rating;

async function statusOf(userId: string, taskId: string) {
  const [row] = await t.db
    .select({ status: taskProgress.status, byStaff: taskProgress.byStaff })
    .from(taskProgress)
    .where(and(eq(taskProgress.userId, userId), eq(taskProgress.taskId, taskId)));
  return row;
}

/** A socket in the room, with what it received. */
function join(bookingId: string, cookie: string) {
  const port = (server.address() as AddressInfo).port;
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api/calls/${bookingId}/signal`, {
    headers: { cookie, origin: ORIGIN },
  });
  sockets.push(socket);
  const received: CallServerMessage[] = [];
  socket.on("message", (data) => received.push(JSON.parse(String(data)) as CallServerMessage));
  const welcomed = new Promise<void>((resolve) =>
    socket.on("message", (data) => {
      if ((JSON.parse(String(data)) as CallServerMessage).type === "welcome") resolve();
    }),
  );
  return { received, welcomed };
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a session's record", () => {
  it("gives both sides the day's role-plays as cue cards, with the script's cues, and the ratings only to the tutor's side", async () => {
    const { bookingId, learner, tutor } = await session();
    const rated = await body<SessionRecord>(
      await rate(bookingId, tutor.cookie, { taskId: GREETINGS, lineId: "greeting-morning", rating: 4 }),
    );
    expect(ratingIn(rated, GREETINGS, "greeting-morning")).toBe(4);

    const tutorRoom = await roomOf(bookingId, tutor.cookie);
    expect(tutorRoom.record.rolePlays.map((card) => card.taskId)).toEqual([GREETINGS, ORDERING]);
    expect(tutorRoom.record.rolePlays[0]!.phrases.map((phrase) => phrase.id)).toEqual(GREETING_LINES);
    expect(tutorRoom.record.rolePlays[0]!.phrases[0]).toMatchObject({ malay: "Selamat pagi, pak cik!", rating: 4 });
    expect(tutorRoom.record.rolePlays.flatMap((card) => card.phrases).every((phrase) => phrase.cue)).toBe(true);
    expect(tutorRoom.record).toMatchObject({ notes: "", endedAt: null, completedTaskIds: [] });

    const learnerRoom = await roomOf(bookingId, learner.cookie);
    expect(learnerRoom.record.rolePlays[0]!.phrases.map((phrase) => phrase.id)).toEqual(GREETING_LINES);
    expect(learnerRoom.record.rolePlays.flatMap((card) => card.phrases).every((phrase) => phrase.rating === null)).toBe(
      true,
    );
    expect(learnerRoom.record.notes).toBeNull();

    // A rating changes, and clears.
    await body(await rate(bookingId, tutor.cookie, { taskId: GREETINGS, lineId: "greeting-morning", rating: 2 }));
    expect(ratingIn((await roomOf(bookingId, tutor.cookie)).record, GREETINGS, "greeting-morning")).toBe(2);
    const cleared = await body<SessionRecord>(
      await rate(bookingId, tutor.cookie, { taskId: GREETINGS, lineId: "greeting-morning", rating: null }),
    );
    expect(ratingIn(cleared, GREETINGS, "greeting-morning")).toBeNull();
  });

  it("lets only the session's tutor or an Admin rate, take notes, read the brief and end; the learner is told why", async () => {
    const { bookingId, learner } = await session();
    const stranger = await person("Tutor");
    const admin = await person("Admin");
    const rating = { taskId: GREETINGS, lineId: "greeting-morning", rating: 3 };
    for (const response of [
      await rate(bookingId, learner.cookie, rating),
      await notes(bookingId, learner.cookie, "I did well"),
      await end(bookingId, learner.cookie),
      await t.request(`/api/calls/${bookingId}/brief`, { cookie: learner.cookie }),
    ]) {
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
        "Only the session's tutor rates its role-plays and writes its notes.",
      );
    }
    for (const response of [
      await rate(bookingId, stranger.cookie, rating),
      await notes(bookingId, stranger.cookie, "x"),
      await end(bookingId, stranger.cookie),
      await t.request(`/api/calls/${bookingId}/brief`, { cookie: stranger.cookie }),
    ]) {
      expect(response.status).toBe(404);
    }
    expect(await t.db.select().from(reviewCard).where(eq(reviewCard.userId, learner.id))).toEqual([]);

    const byAdmin = await body<SessionRecord>(await rate(bookingId, admin.cookie, rating));
    expect(ratingIn(byAdmin, GREETINGS, "greeting-morning")).toBe(3);
  });

  it("keeps a Tutor from rating, noting or ending a session an Admin booked as its learner; an Admin may", async () => {
    const [learner, tutor, admin] = [await person("Admin"), await person("Tutor"), await person("Admin")];
    const bookingId = await insertBooking(t, {
      tutorId: tutor.id,
      learnerId: learner.id,
      startsAt: new Date(Date.now() + 2 * 60_000),
    });
    const watch = async () => ({
      ratings: await t.db.select().from(callRating).where(eq(callRating.bookingId, bookingId)),
      record: await t.db.select().from(callRecord).where(eq(callRecord.bookingId, bookingId)),
      progress: await t.db.select().from(taskProgress).where(eq(taskProgress.userId, learner.id)),
      cards: await t.db.select().from(reviewCard).where(eq(reviewCard.userId, learner.id)),
      feedback: await t.db.select().from(tutorFeedback).where(eq(tutorFeedback.studentId, learner.id)),
      mail: (await t.outbox()).length,
    });
    const before = await watch();
    for (const response of [
      await rate(bookingId, tutor.cookie, { taskId: GREETINGS, lineId: "greeting-morning", rating: 1 }),
      await notes(bookingId, tutor.cookie, "Needs work."),
      await end(bookingId, tutor.cookie),
      await t.request(`/api/calls/${bookingId}/brief`, { cookie: tutor.cookie }),
    ]) {
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
        "A tutor can act only on students' accounts.",
      );
    }
    expect(await watch()).toEqual(before);
    // The room itself still takes the tutor: the call goes on.
    expect((await t.request(`/api/calls/${bookingId}`, { cookie: tutor.cookie })).status).toBe(200);

    for (const lineId of GREETING_LINES) {
      await body(
        await rate(bookingId, admin.cookie, { taskId: GREETINGS, lineId, rating: lineId === "greeting-ask" ? 1 : 5 }),
      );
    }
    await body(await notes(bookingId, admin.cookie, "Well done."));
    const ended = await body<SessionRecord>(await end(bookingId, admin.cookie));
    expect(ended.completedTaskIds).toEqual([GREETINGS]);
    expect(await statusOf(learner.id, GREETINGS)).toEqual({ status: "completed", byStaff: true });
    const written = await t.db.select().from(tutorFeedback).where(eq(tutorFeedback.studentId, learner.id));
    expect(written.map((note) => [note.tutorId, note.feedback])).toEqual([[admin.id, "Well done."]]);
  });

  it("refuses a rating out of range or of another day's lines, and notes too long, changing nothing", async () => {
    const { bookingId, tutor } = await session();
    await body(await rate(bookingId, tutor.cookie, { taskId: GREETINGS, lineId: "greeting-ask", rating: 5 }));
    await body(await notes(bookingId, tutor.cookie, "Good start."));
    const cases: [unknown, string][] = [
      [{ taskId: GREETINGS, lineId: "greeting-ask", rating: 6 }, "A rating is a whole number from 1 to 5."],
      [{ taskId: GREETINGS, lineId: "greeting-ask", rating: 2.5 }, "A rating is a whole number from 1 to 5."],
      [{ taskId: GREETINGS, lineId: "greeting-ask" }, "A rating is a whole number from 1 to 5, or null to clear it."],
      [{ taskId: "codebook:practice", lineId: "greeting-ask", rating: 2 }, "not a role-play of this session's day"],
      [{ taskId: GREETINGS, lineId: "order-drink", rating: 2 }, `"order-drink" is not a phrase of "Greetings".`],
      [{ taskId: GREETINGS, lineId: "greeting-ask", rating: 2, extra: true }, "extra"],
    ];
    for (const [json, message] of cases) {
      const response = await rate(bookingId, tutor.cookie, json);
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(JSON.stringify(message).slice(1, -1));
    }
    const tooLong = await notes(bookingId, tutor.cookie, "a".repeat(4001));
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain("Notes can be at most 4000 characters.");
    const { record } = await roomOf(bookingId, tutor.cookie);
    expect(ratingIn(record, GREETINGS, "greeting-ask")).toBe(5);
    expect(record.notes).toBe("Good start.");
  });

  it("takes no ratings before the room opens", async () => {
    const { bookingId, tutor } = await session(3 * 60 * 60_000);
    const response = await rate(bookingId, tutor.cookie, { taskId: GREETINGS, lineId: "greeting-ask", rating: 5 });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain("Ratings and notes open with the session's room.");
    expect((await end(bookingId, tutor.cookie)).status).toBe(409);
  });

  it("briefs the tutor on the day's practice answered wrong, the weakest review phrases and the learner's takes", async () => {
    const { bookingId, learner, tutor } = await session();
    // Day 1's practice: the same wrong answer twice, and another wrong one.
    for (const choiceId of ["too-early", "too-early", "wrong-drink"]) {
      const answered = await t.request("/api/answers", {
        method: "POST",
        cookie: learner.cookie,
        json: {
          clientId: randomUUID(),
          chapterId: "chapter-1",
          dayId: "day-1",
          taskId: "codebook:practice",
          itemId: "why-sekarang-pagi",
          given: { choiceId },
        },
      });
      expect(answered.status).toBe(200);
    }
    const form = new FormData();
    form.set("chapterId", "chapter-1");
    form.set("dayId", "day-1");
    form.set("lineId", "greeting-ask");
    form.set(
      "take",
      new File([new Uint8Array(readFileSync("tests/fixtures/takes/chromium-2s.webm"))], "take.webm", {
        type: "audio/webm;codecs=opus",
      }),
    );
    expect(
      (await t.request("/api/speaking/takes", { method: "POST", cookie: learner.cookie, body: form })).status,
    ).toBe(201);

    const brief = await body<SessionBrief>(await t.request(`/api/calls/${bookingId}/brief`, { cookie: tutor.cookie }));
    expect(brief.takes).toEqual([
      expect.objectContaining({ malay: expect.any(String), model: "/media/course/chapter-1/day-1/greeting-ask.mp3" }),
    ]);
    expect((await t.request(brief.takes[0]!.take.audio, { cookie: tutor.cookie })).status).toBe(200);
    expect(brief.mistakes).toEqual([
      {
        taskId: "codebook:practice",
        itemId: "why-sekarang-pagi",
        prompt: 'Why does Pak Cik Ali say "Malam? Pagi!"?',
        answer: "Alex said good evening, but it is morning",
        wrongAnswers: ["The kedai kopi is not open yet", "Alex ordered the wrong drink"],
        wrong: 3,
        rightSince: false,
      },
    ]);
  });

  it("ends: completes each fully rated role-play on its own, pins lines rated 1-2, turns the notes into feedback and tells the learner", async () => {
    const { bookingId, learner, tutor } = await session();
    const watcher = join(bookingId, learner.cookie);
    await watcher.welcomed;
    for (const [index, lineId] of GREETING_LINES.entries()) {
      await body(await rate(bookingId, tutor.cookie, { taskId: GREETINGS, lineId, rating: index === 3 ? 2 : 4 }));
    }
    // The ordering role-play is rated in part: it stays open.
    await body(await rate(bookingId, tutor.cookie, { taskId: ORDERING, lineId: "order-drink", rating: 1 }));
    await body(await notes(bookingId, tutor.cookie, "  Lovely greetings. Work on 'Apa khabar?'  "));
    const mailBefore = (await t.outbox()).length;

    const ended = await body<SessionRecord>(await end(bookingId, tutor.cookie));
    expect(ended.endedAt).toEqual(expect.any(String));
    expect(ended.completedTaskIds).toEqual([GREETINGS]);

    // Progress: the greeting role-play is completed by staff; the ordering one is not started.
    expect(await statusOf(learner.id, GREETINGS)).toEqual({ status: "completed", byStaff: true });
    expect(await statusOf(learner.id, ORDERING)).toBeUndefined();

    // Review: the two lines rated 2 or less are pinned by the tutor, and the learner's round starts with them.
    const pinned = await t.db
      .select({ phraseId: reviewCard.phraseId, pinnedBy: reviewCard.pinnedBy })
      .from(reviewCard)
      .where(eq(reviewCard.userId, learner.id));
    expect(new Set(pinned.map((card) => card.phraseId))).toEqual(new Set(["greeting-ask", "order-drink"]));
    expect(pinned.every((card) => card.pinnedBy === tutor.id)).toBe(true);
    const round = await body<ReviewRound>(await t.request("/api/review", { cookie: learner.cookie }));
    expect(round.cards.length).toBeGreaterThan(0);
    expect(round.cards[0]!.fromTutor).toBe(true);

    // Feedback: the notes, trimmed, from this tutor.
    const feedback = await body<{ feedback: { feedback: string; dayId: string }[] }>(
      await t.request("/api/feedback", { cookie: learner.cookie }),
    );
    expect(feedback.feedback).toEqual([
      expect.objectContaining({ dayId: "day-1", feedback: "Lovely greetings. Work on 'Apa khabar?'" }),
    ]);

    // The learner is told: a notice, an email (the speaking module's, once the session's end is
    // delivered to it), and the room's socket.
    await t.modules.events.deliverAll();
    const notices = await body<{ unread: number; notices: { kind: string; dayNumber: number; title: string }[] }>(
      await t.request("/api/speaking/notices", { cookie: learner.cookie }),
    );
    expect(notices.notices[0]).toMatchObject({ kind: "session-rated", dayNumber: 1, title: "Live session" });
    const mail = (await t.outbox()).slice(mailBefore);
    expect(mail).toEqual([
      expect.objectContaining({ to: learner.email, subject: "Your tutor has rated your Day 1 session" }),
    ]);
    await until(() => watcher.received.some((message) => message.type === "ended"), "the room to say it ended");

    // The learner now sees the ratings and the notes.
    const { record } = await roomOf(bookingId, learner.cookie);
    expect(ratingIn(record, GREETINGS, "greeting-ask")).toBe(2);
    expect(ratingIn(record, ORDERING, "order-drink")).toBe(1);
    expect(record.notes).toBe("Lovely greetings. Work on 'Apa khabar?'");
    expect(record.completedTaskIds).toEqual([GREETINGS]);

    // The notes are the day's feedback: as the tutor corrects or withdraws it, so the room shows it.
    const [note] = (
      await body<{ feedback: { id: string }[] }>(await t.request("/api/feedback", { cookie: learner.cookie }))
    ).feedback;
    await body(
      await t.request(`/api/feedback/${note!.id}`, {
        method: "PATCH",
        cookie: tutor.cookie,
        json: { feedback: "Lovely greetings." },
      }),
    );
    expect((await roomOf(bookingId, learner.cookie)).record.notes).toBe("Lovely greetings.");
    await body(await t.request(`/api/feedback/${note!.id}`, { method: "DELETE", cookie: tutor.cookie }));
    expect((await roomOf(bookingId, learner.cookie)).record.notes).toBeNull();

    // Ended once: nothing more is taken.
    expect((await end(bookingId, tutor.cookie)).status).toBe(409);
    expect((await rate(bookingId, tutor.cookie, { taskId: ORDERING, lineId: "order-thanks", rating: 5 })).status).toBe(
      409,
    );
    expect((await notes(bookingId, tutor.cookie, "changed")).status).toBe(409);
    expect(ratingIn((await roomOf(bookingId, tutor.cookie)).record, ORDERING, "order-thanks")).toBeNull();
  });

  it("does not make the learner look active when the session ends", async () => {
    const { bookingId, learner, tutor } = await session();
    for (const lineId of GREETING_LINES) {
      await body(await rate(bookingId, tutor.cookie, { taskId: GREETINGS, lineId, rating: 5 }));
    }
    await body(await end(bookingId, tutor.cookie));
    const report = await body<{ lastActivityAt: string | null }>(
      await t.request(`/api/users/${learner.id}/review`, { cookie: tutor.cookie }),
    );
    expect(report.lastActivityAt).toBeNull();
  });
});
