import { randomBytes, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { asc, eq, gt, like, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "#course/roles";
import {
  answer,
  booking,
  bookingChange,
  bookingReminder,
  calendarFeed,
  callRecord,
  contactMessage,
  dailyGoalChange,
  linePractice,
  notice,
  quietDay,
  recording,
  reviewCard,
  reviewLog,
  reviewReminder,
  session,
  sessionRating,
  speakingSubmission,
  storedFile,
  studioClip,
  studioDialogue,
  studioTake,
  taskProgress,
  tutorFeedback,
  tutorHours,
  user,
  voice,
  voiceConsent,
} from "#server/db/schema";
import { tokenHashOf } from "#server/modules/calendar/calendar.service";
import { moduleRoutes } from "#server/modules/registry";
import { dialogueBuiltFrom } from "#server/modules/studio/studio.dialogues";
import {
  ACTORS,
  type Actor,
  AUTHORIZATION_TABLE,
  type Outcome,
  pathMatchesRoute,
  STUDIO_TAKES,
  studioWav,
} from "./authorization-table";
import { FIXTURE_COURSE } from "./fixtures/course";
import { createTestApp, newUser } from "./test-app";
import { unsubscribeTokenOf } from "./unsubscribe-token";

/** The fixture course: its day 1 has the story tasks the table names and a practice set to answer. */
const t = await createTestApp({}, { course: FIXTURE_COURSE });

/** Every account made here has newUser's password. */
const DEFAULT_PASSWORD = newUser().password;

interface Account {
  id: string;
  email: string;
  cookie: string;
  role: Role;
}

/** The accounts behind the actors; the expired, revoked and stale sessions are Admins of their own. */
const accounts = {} as Record<Exclude<Actor, "anonymous">, Account>;
let expiredSessionRow: typeof session.$inferSelect;

async function account(role: Role): Promise<Account> {
  const { user: details, cookie } = await t.signedInUser();
  const [row] = await t.db.update(user).set({ role }).where(eq(user.email, details.email)).returning({ id: user.id });
  return { id: row!.id, email: details.email, cookie, role };
}

/** Longer ago than FRESH_SESSION_MS (src/server/auth/session.ts): the stale session's sign-in. */
const STALE_SIGN_IN = sql`now() - interval '1 hour'`;

const profileStatus = async (cookie: string) => (await t.request("/api/profile", { cookie })).status;

/**
 * A new account standing for `actor`. Each stale cookie is shown to work first, so its 401s later
 * come from the expiry or the sign-out. The stale ones are also signed in on a second device, which
 * a wrongly allowed "sign out my other devices" would end, and the snapshot would show.
 */
async function newActor(
  actor: Exclude<Actor, "anonymous">,
): Promise<Account & { expiredRow?: typeof session.$inferSelect }> {
  switch (actor) {
    case "learner":
    case "otherLearner":
      return account("Student");
    case "tutor":
    case "tutorOnStaff":
      return account("Tutor");
    case "admin":
    case "adminOnStaff":
      return account("Admin");
    case "expiredSession": {
      const expired = await account("Admin");
      expect(await profileStatus(expired.cookie)).toBe(200);
      const [row] = await t.db
        .update(session)
        .set({ expiresAt: sql`now() - interval '1 minute'` })
        .where(eq(session.userId, expired.id))
        .returning();
      await t.signIn({ email: expired.email, password: DEFAULT_PASSWORD });
      return { ...expired, expiredRow: row! };
    }
    case "revokedSession": {
      const revoked = await account("Admin");
      expect(await profileStatus(revoked.cookie)).toBe(200);
      const signOut = await t.request("/api/auth/sign-out", { method: "POST", cookie: revoked.cookie, json: {} });
      expect(signOut.status).toBe(200);
      expect(await t.db.select().from(session).where(eq(session.userId, revoked.id))).toEqual([]);
      await t.signIn({ email: revoked.email, password: DEFAULT_PASSWORD });
      return revoked;
    }
    case "staleSession": {
      const stale = await account("Admin");
      await t.db.update(session).set({ createdAt: STALE_SIGN_IN }).where(eq(session.userId, stale.id));
      return stale;
    }
  }
}

/** The take each account holds before every cell (resetWorld), by account id. */
const takes = new Map<string, string>();
const takeOf = (userId: string) => {
  if (!takes.has(userId)) takes.set(userId, randomUUID());
  return takes.get(userId)!;
};
const TAKE = readFileSync("tests/fixtures/takes/chromium-2s.webm");
/** The rows of a take of day 1's line `lineId`, its bytes in stored_file, sent in `submissionId` when given. */
function takeRows(userId: string, takeId: string, lineId: string, submissionId: string | null) {
  const fileKey = `takes/${userId}/${takeId}.webm`;
  return {
    file: { key: fileKey, contentType: "audio/webm", data: TAKE },
    recording: {
      id: takeId,
      userId,
      chapterId: "chapter-1",
      dayId: "day-1",
      lineId,
      fileKey,
      contentType: "audio/webm" as const,
      byteSize: TAKE.length,
      durationMs: 1940,
      submissionId,
    },
  };
}

/** The role-play each account sent before every cell (resetWorld), by account id. */
const sents = new Map<string, { submissionId: string; takeId: string }>();
const sentOf = (userId: string) => {
  if (!sents.has(userId)) sents.set(userId, { submissionId: randomUUID(), takeId: randomUUID() });
  return sents.get(userId)!;
};

/** The token of the calendar feed each account holds before every cell (resetWorld), by account id. */
const feedTokens = new Map<string, string>();
const feedTokenOf = (userId: string) => {
  if (!feedTokens.has(userId)) feedTokens.set(userId, randomBytes(32).toString("base64url"));
  return feedTokens.get(userId)!;
};

/** The note the tutor actor sent the first learner, held before every cell (resetWorld). */
const FEEDBACK_ID = randomUUID();

/** The sessions each account booked before every cell (resetWorld), by account id. */
const bookings = new Map<string, { upcoming: string; past: string; held: string }>();
const bookingOf = (userId: string) => {
  if (!bookings.has(userId)) bookings.set(userId, { upcoming: randomUUID(), past: randomUUID(), held: randomUUID() });
  return bookings.get(userId)!;
};
const HOUR = 60 * 60_000;
/** The hour the run began: the world's sessions are placed from it. */
const BASE = Math.floor(Date.now() / HOUR) * HOUR;
/** The tutor of every seeded session, none of the actors (made in beforeAll). */
let bookingTutor: { id: string; freeSlot: string };

/** Whose id the actor's requests address: a member of staff's for the staff-on-staff actors, else the first learner's. */
function targetOf(actor: Actor): string {
  if (actor === "tutorOnStaff") return accounts.admin.id;
  if (actor === "adminOnStaff") return accounts.tutor.id;
  return accounts.learner.id;
}

beforeAll(async () => {
  const tutorAccount = await account("Tutor");
  bookingTutor = { id: tutorAccount.id, freeSlot: new Date(BASE + 2 * 24 * HOUR).toISOString() };
  for (const actor of ACTORS) {
    if (actor === "anonymous") continue;
    const { expiredRow, ...made } = await newActor(actor);
    accounts[actor] = made;
    if (expiredRow) expiredSessionRow = expiredRow;
  }
});

/**
 * The same data before every cell: the actors' roles and default settings, some progress for both
 * learners, an answer of the first learner, feedback the first learner received and one contact
 * message, so that a wrongly allowed write, change or delete would show in the snapshot. The expired session is put back too (Better Auth deletes an expired
 * session when it meets one). Every session is fresh but the stale actor's, however long the run
 * has taken, and none has entered its password again. One transaction: the cells are many, and a
 * commit for each of these writes would cost the run more than the requests it tests.
 */
async function resetWorld() {
  await t.db.transaction(async (tx) => {
    for (const { id, role } of Object.values(accounts)) {
      await tx.update(user).set({ role, theme: "light", emailNotifications: true }).where(eq(user.id, id));
    }
    await tx.delete(taskProgress);
    await tx.insert(taskProgress).values([
      {
        userId: accounts.learner.id,
        chapterId: "chapter-1",
        sectionId: "day-1",
        taskId: "story:read-setting",
        status: "completed",
      },
      {
        userId: accounts.learner.id,
        chapterId: "chapter-1",
        sectionId: "day-1",
        taskId: "story:read-dialog",
        status: "in-progress",
      },
      {
        userId: accounts.otherLearner.id,
        chapterId: "chapter-1",
        sectionId: "day-1",
        taskId: "story:read-setting",
        status: "in-progress",
      },
    ]);
    await tx.delete(answer);
    await tx.insert(answer).values({
      userId: accounts.learner.id,
      clientId: "00000000-0000-4000-8000-000000000001",
      chapterId: "chapter-1",
      dayId: "day-1",
      taskId: "codebook:practice",
      itemId: "say-price",
      given: { choiceId: "right" },
      correct: true,
    });
    await tx.delete(tutorFeedback);
    await tx.insert(tutorFeedback).values({
      id: FEEDBACK_ID,
      studentId: accounts.learner.id,
      tutorId: accounts.tutor.id,
      chapterId: "chapter-1",
      dayId: "day-1",
      feedback: "Sebutan anda bagus.",
    });
    await tx.delete(contactMessage);
    await tx.insert(contactMessage).values({ fullName: "Ahmad", email: "ahmad@example.com", message: "Salam!" });
    for (const table of [
      reviewLog,
      reviewReminder,
      dailyGoalChange,
      reviewCard,
      speakingSubmission,
      recording,
      linePractice,
      quietDay,
      notice,
      bookingReminder,
      bookingChange,
      booking,
      tutorHours,
      studioClip,
      studioDialogue,
      studioTake,
      voiceConsent,
      voice,
      calendarFeed,
    ]) {
      await tx.delete(table);
    }
    await tx
      .insert(calendarFeed)
      .values(Object.values(accounts).map(({ id }) => ({ userId: id, tokenHash: tokenHashOf(feedTokenOf(id)) })));
    await tx.insert(voice).values({ userId: accounts.tutor.id, creditedName: "Aina", accent: "kuala-lumpur" });
    await tx.insert(voiceConsent).values({ userId: accounts.tutor.id, version: "1" });
    await seedStudio(tx, accounts.tutor.id);
    await tx.insert(tutorHours).values({
      userId: bookingTutor.id,
      timeZone: "UTC",
      noticeHours: 0,
      weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
        weekday: weekday as 1,
        ranges: [{ start: "00:00", end: "24:00" }],
      })),
    });
    await tx.insert(booking).values(Object.values(accounts).flatMap(({ id }, index) => bookingRows(id, index)));
    await tx
      .insert(callRecord)
      .values(Object.values(accounts).map(({ id }) => ({ bookingId: bookingOf(id).held, endedAt: new Date(BASE) })));
    const submissions = Object.values(accounts).map(({ id }) => ({ id, ...sentOf(id) }));
    await tx.insert(speakingSubmission).values(
      submissions.map(({ id, submissionId }) => ({
        id: submissionId,
        userId: id,
        chapterId: "chapter-1",
        dayId: "day-1",
        taskId: "live-session:greeting-practice",
      })),
    );
    const seededTakes = submissions.flatMap(({ id, submissionId, takeId }) => [
      takeRows(id, takeId, "phrase-apa-khabar", submissionId),
      takeRows(id, takeOf(id), "line-selamat-pagi", null),
    ]);
    await tx.insert(storedFile).values(seededTakes.map(({ file }) => file));
    await tx.insert(recording).values(seededTakes.map(({ recording: row }) => row));
    await tx
      .insert(session)
      .values(expiredSessionRow)
      .onConflictDoUpdate({ target: session.id, set: { expiresAt: expiredSessionRow.expiresAt } });
    await tx.update(session).set({
      createdAt: sql`case when ${session.userId} = ${accounts.staleSession.id} then ${STALE_SIGN_IN} else now() end`,
      passwordConfirmedAt: null,
    });
  });
}

/**
 * The studio before every cell: the tutor voice's take of "line-selamat-pagi" waiting for review,
 * their published clips of "card-pagi" and of "line-nak-minum", each with its files, and Day 1's
 * dialogue recording built with the latter (as its job keeps it: a job left running finds it as built).
 */
async function seedStudio(tx: Parameters<Parameters<typeof t.db.transaction>[0]>[0], voiceId: string) {
  await tx.delete(storedFile).where(like(storedFile.key, "studio/%"));
  const wav = studioWav();
  const line = { chapterId: "chapter-1", dayId: "day-1", voiceId };
  const files = (id: string) => ({ masterKey: `studio/${voiceId}/${id}.wav`, clipKey: `studio/${voiceId}/${id}.webm` });
  const inReview = files(STUDIO_TAKES.inReview);
  const published = files(STUDIO_TAKES.published);
  const inDialogue = files(STUDIO_TAKES.inDialogue);
  const dialogueKey = `studio/dialogues/${STUDIO_TAKES.dialogue}.webm`;
  await tx.insert(storedFile).values([
    ...[inReview, published, inDialogue].flatMap(({ masterKey, clipKey }) => [
      { key: masterKey, contentType: "audio/wav", data: wav },
      { key: clipKey, contentType: "audio/webm", data: TAKE },
    ]),
    { key: dialogueKey, contentType: "audio/webm", data: TAKE },
  ]);
  const processed = { masterBytes: wav.length, clipBytes: TAKE.length, durationMs: 1000, checks: [] };
  await tx.insert(studioTake).values([
    { id: STUDIO_TAKES.inReview, ...line, lineId: "line-selamat-pagi", state: "in-review", ...inReview, ...processed },
    { id: STUDIO_TAKES.published, ...line, lineId: "card-pagi", state: "published", ...published, ...processed },
    { id: STUDIO_TAKES.inDialogue, ...line, lineId: "line-nak-minum", state: "published", ...inDialogue, ...processed },
  ]);
  await tx.insert(studioClip).values([
    { ...line, lineId: "card-pagi", takeId: STUDIO_TAKES.published, speaker: null },
    { ...line, lineId: "line-nak-minum", takeId: STUDIO_TAKES.inDialogue, speaker: "Pak Cik Ali" },
  ]);
  await tx.insert(studioDialogue).values({
    chapterId: "chapter-1",
    dayId: "day-1",
    sectionId: "dialogue",
    id: STUDIO_TAKES.dialogue,
    key: dialogueKey,
    bytes: TAKE.length,
    builtFrom: dialogueBuiltFrom([STUDIO_TAKES.inDialogue]),
  });
}

/** The sessions an account booked before every cell: one upcoming with a move proposed, one past, one held. */
function bookingRows(learnerId: string, index: number) {
  const { upcoming, past, held } = bookingOf(learnerId);
  const at = (hours: number) => new Date(BASE + hours * HOUR);
  const seeded = { tutorId: bookingTutor.id, learnerId, chapterId: "chapter-1", status: "confirmed" as const };
  const inviteUid = randomUUID();
  return [
    { ...seeded, id: upcoming, inviteUid, dayId: "day-2", startsAt: at(72 + index), endsAt: at(72.5 + index) },
    {
      ...seeded,
      inviteUid,
      status: "proposed" as const,
      replacesId: upcoming,
      dayId: "day-2",
      startsAt: at(120 + index),
      endsAt: at(120.5 + index),
    },
    {
      ...seeded,
      id: past,
      inviteUid: randomUUID(),
      dayId: "day-3",
      startsAt: at(-24 - index),
      endsAt: at(-23.5 - index),
    },
    {
      ...seeded,
      id: held,
      inviteUid: randomUUID(),
      dayId: "day-4",
      startsAt: at(-48 - index),
      endsAt: at(-47.5 - index),
    },
  ];
}

/**
 * Everything an API call could write: accounts (roles, profiles, settings), live sessions and their
 * password confirmations, progress, answers, feedback, contact messages, review cards, the review
 * log and reminders, voices and their consents, the studio's takes and clips, the calendar feeds. Expired sessions are left out: Better Auth deletes
 * one when it meets it.
 */
async function snapshot() {
  const [
    users,
    sessions,
    progress,
    answers,
    feedback,
    messages,
    cards,
    reviews,
    reminders,
    goalChanges,
    takes,
    submissions,
    lines,
    quiet,
    notices,
    bookingRows,
    bookingChanges,
    hours,
    voices,
    voiceConsents,
    studioTakes,
    studioClips,
    studioDialogues,
    calendarFeeds,
    sessionRatings,
  ] = await Promise.all([
    t.db
      .select({
        id: user.id,
        role: user.role,
        firstName: user.firstName,
        lastName: user.lastName,
        nickname: user.nickname,
        avatarPath: user.avatarPath,
        theme: user.theme,
        emailNotifications: user.emailNotifications,
        twoFactorEnabled: user.twoFactorEnabled,
        dailyGoalUnit: user.dailyGoalUnit,
        dailyGoal: user.dailyGoal,
        timeZone: user.timeZone,
        reminderHour: user.reminderHour,
        unsubscribeKey: user.unsubscribeKey,
        updatedAt: sql<string>`${user.updatedAt}::text`,
      })
      .from(user)
      .orderBy(asc(user.id)),
    t.db
      .select({
        id: session.id,
        userId: session.userId,
        passwordConfirmedAt: sql<string | null>`${session.passwordConfirmedAt}::text`,
      })
      .from(session)
      .where(gt(session.expiresAt, sql`now()`))
      .orderBy(asc(session.id)),
    t.db
      .select({
        userId: taskProgress.userId,
        chapterId: taskProgress.chapterId,
        dayId: taskProgress.sectionId,
        taskId: taskProgress.taskId,
        status: taskProgress.status,
        updatedAt: sql<string>`${taskProgress.updatedAt}::text`,
      })
      .from(taskProgress)
      .orderBy(asc(taskProgress.userId), asc(taskProgress.sectionId), asc(taskProgress.taskId)),
    t.db.select().from(answer).orderBy(asc(answer.id)),
    t.db.select().from(tutorFeedback).orderBy(asc(tutorFeedback.id)),
    t.db.select().from(contactMessage).orderBy(asc(contactMessage.id)),
    t.db
      .select()
      .from(reviewCard)
      .orderBy(asc(reviewCard.userId), asc(reviewCard.dayId), asc(reviewCard.phraseId), asc(reviewCard.skill)),
    t.db.select().from(reviewLog).orderBy(asc(reviewLog.id)),
    t.db.select().from(reviewReminder).orderBy(asc(reviewReminder.userId), asc(reviewReminder.localDate)),
    t.db.select().from(dailyGoalChange).orderBy(asc(dailyGoalChange.userId), asc(dailyGoalChange.localDate)),
    t.db.select().from(recording).orderBy(asc(recording.id)),
    t.db.select().from(speakingSubmission).orderBy(asc(speakingSubmission.id)),
    t.db.select().from(linePractice).orderBy(asc(linePractice.userId), asc(linePractice.lineId)),
    t.db.select().from(quietDay).orderBy(asc(quietDay.userId), asc(quietDay.dayId)),
    t.db.select().from(notice).orderBy(asc(notice.id)),
    t.db.select().from(booking).orderBy(asc(booking.id)),
    t.db.select().from(bookingChange).orderBy(asc(bookingChange.id)),
    t.db.select().from(tutorHours).orderBy(asc(tutorHours.userId)),
    t.db.select().from(voice).orderBy(asc(voice.userId)),
    t.db.select().from(voiceConsent).orderBy(asc(voiceConsent.id)),
    t.db.select().from(studioTake).orderBy(asc(studioTake.id)),
    t.db.select().from(studioClip).orderBy(asc(studioClip.takeId)),
    t.db.select().from(studioDialogue).orderBy(asc(studioDialogue.id)),
    t.db.select().from(calendarFeed).orderBy(asc(calendarFeed.userId)),
    t.db.select().from(sessionRating).orderBy(asc(sessionRating.bookingId)),
  ]);
  return {
    users,
    sessions,
    progress,
    answers,
    feedback,
    messages,
    cards,
    reviews,
    reminders,
    goalChanges,
    takes,
    submissions,
    lines,
    quiet,
    notices,
    bookingRows,
    bookingChanges,
    hours,
    voices,
    voiceConsents,
    studioTakes,
    studioClips,
    studioDialogues,
    calendarFeeds,
    sessionRatings,
  };
}

const statusOf = (outcome: Outcome) => (outcome === "allow" ? "2xx" : outcome.slice(0, 3));
const ERROR_CODES: Record<Exclude<Outcome, "allow">, string> = {
  "401": "UNAUTHORIZED",
  "403": "FORBIDDEN",
  "403-password": "PASSWORD_REQUIRED",
  "404": "NOT_FOUND",
  "426-upgrade": "UPGRADE_REQUIRED",
};
const statusClass = (status: number) => (status >= 200 && status < 300 ? "2xx" : String(status));

let serial = 0;

describe("the authorization table", () => {
  it("lists every API route the registry mounts, and only those", () => {
    const served = new Set(moduleRoutes(t.modules).map((route) => `${route.method} ${route.path}`));
    const listed = AUTHORIZATION_TABLE.map((rule) => `${rule.method} ${rule.route}`);
    expect(
      [...served].filter((route) => !listed.includes(route)),
      "API routes missing from tests/authorization-table.ts",
    ).toEqual([]);
    expect(
      listed.filter((route) => !served.has(route)),
      "rows of tests/authorization-table.ts the app does not serve",
    ).toEqual([]);
    expect(new Set(listed).size, "rows listed twice").toBe(listed.length);
  });

  it("serves no API route outside the registry's modules but Better Auth's", () => {
    const registered = new Set(moduleRoutes(t.modules).map((route) => `${route.method} ${route.path}`));
    const outside = t.app.routes
      .filter(
        (route) => route.method !== "ALL" && route.path.startsWith("/api/") && !route.path.startsWith("/api/auth/"),
      )
      .map((route) => `${route.method} ${route.path}`)
      .filter((route) => !registered.has(route));
    expect(outside).toEqual([]);
  });

  it.each(AUTHORIZATION_TABLE.map((rule) => [`${rule.method} ${rule.route}`, rule] as const))(
    "%s: its request addresses its route and some actor is allowed it",
    async (_name, rule) => {
      const built = await rule.request({
        targetId: "some-user-id",
        password: DEFAULT_PASSWORD,
        serial: 0,
        unsubscribeToken: (userId) => unsubscribeTokenOf(t, userId),
        takeOf,
        sentOf,
        bookingOf,
        feedbackId: FEEDBACK_ID,
        bookingTutor,
        feedTokenOf,
        voiceId: accounts.tutor.id,
        asCaller: async (path, init = {}) => t.request(path, init),
      });
      expect(pathMatchesRoute(built.path, rule.route), built.path).toBe(true);
      expect(Object.values(rule.expected).some((outcome) => outcome === "allow" || outcome === "426-upgrade")).toBe(
        true,
      );
    },
  );
});

describe.each(AUTHORIZATION_TABLE.map((rule) => [`${rule.method} ${rule.route}`, rule] as const))(
  "%s",
  (_name, rule) => {
    it.each(ACTORS.map((actor) => [actor, rule.expected[actor]] as const))("%s: %s", async (actor, outcome) => {
      await resetWorld();
      const caller = actor === "anonymous" ? null : rule.deletesCaller ? await newActor(actor) : accounts[actor];
      serial += 1;
      // The request is prepared first (some prepare the caller's own data through the API), so
      // that the snapshot is of the world the request under test meets.
      const { path, json, body, clientIp } = await rule.request({
        targetId: targetOf(actor),
        password: DEFAULT_PASSWORD,
        serial,
        unsubscribeToken: (userId) => unsubscribeTokenOf(t, userId),
        takeOf,
        sentOf,
        bookingOf,
        feedbackId: FEEDBACK_ID,
        bookingTutor,
        feedTokenOf,
        voiceId: accounts.tutor.id,
        asCaller: async (target, init = {}) => t.request(target, { ...init, cookie: caller?.cookie }),
      });
      const before = await snapshot();
      const response = await t.request(path, { method: rule.method, cookie: caller?.cookie, json, body, clientIp });
      // An event stream stays open: its status is what is checked, then it is closed.
      const streaming = response.headers.get("content-type")?.startsWith("text/event-stream");
      const said = streaming ? "an event stream" : await response.clone().text();
      if (streaming) await response.body?.cancel();
      expect(statusClass(response.status), said).toBe(statusOf(outcome));
      if (outcome !== "allow") {
        const { error } = await response.json();
        expect(error.code).toBe(ERROR_CODES[outcome]);
        expect(await snapshot()).toEqual(before);
      } else if (rule.deletesCaller) {
        expect(await t.db.select().from(user).where(eq(user.id, caller!.id))).toEqual([]);
      }
    });
  },
);
