import { eq, inArray, like, or, sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { practiceSetOf } from "#course/course";
import { rightAnswer } from "#course/grading";
import { shadowingOf } from "#course/speaking";
import { FRESH_SESSION_MS } from "#server/auth/session";
import {
  account as accountTable,
  contactMessage,
  mailOutbox,
  session as sessionTable,
  storedFile,
  taskProgress,
  tutorFeedback,
  twoFactor as twoFactorTable,
  user as userTable,
  verification,
} from "#server/db/schema";
import { LIMITS } from "#server/http/request-limit";
import { allAnswered, completeDayAsLearner } from "#tests/complete-day";
import { cookieFrom, cookieJar, createTestApp, type TestUser } from "#tests/test-app";
import { parseTotpUri } from "#tests/totp";
import { enableTwoFactor } from "#tests/two-factor";

const t = await createTestApp();
// The same database and secret with Jalan's own limits on (RATE_LIMIT=true): a cookie from `t` signs
// in here too, while accounts are still made through `t`, free of Better Auth's sign-up limits.
const limited = await createTestApp({ RATE_LIMIT: "true", AUTH_SECRET: t.env.AUTH_SECRET });

async function idOf(email: string): Promise<string> {
  const [row] = await t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, email));
  return row!.id;
}

const profileStatus = async (cookie: string) => (await t.request("/api/profile", { cookie })).status;

/** A learner signed in on two devices: `cookie` is the one the tests act from. */
async function learnerOnTwoDevices() {
  const { user, cookie } = await t.signedInUser();
  const otherDevice = await t.signIn(user);
  return { user, cookie, otherDevice, id: await idOf(user.email) };
}

async function uploadAvatar(cookie: string) {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 9, g: 99, b: 9 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.set("avatar", new File([new Uint8Array(png)], "me.png", { type: "image/png" }));
  const response = await t.request("/api/profile/avatar", { method: "PUT", cookie, body: form });
  expect(response.status).toBe(200);
  return (await response.json()).profile.avatar as { small: string; large: string };
}

/** The names of the stored avatar files (rows of stored_file, src/server/storage/storage.ts). */
async function avatarFiles(): Promise<string[]> {
  const rows = await t.db.select({ key: storedFile.key }).from(storedFile).where(like(storedFile.key, "avatars/%"));
  return rows.map((row) => row.key.slice("avatars/".length));
}

let contactSerial = 0;
async function sendContactMessage(cookie: string, message: string) {
  contactSerial += 1;
  const response = await t.request("/api/contact", {
    method: "POST",
    cookie,
    json: { fullName: "Alex Tan", email: "alex@example.com", message },
    clientIp: `203.0.113.${contactSerial}`,
  });
  expect(response.status).toBe(201);
}

async function makeRole(email: string, role: "Student" | "Tutor" | "Admin") {
  await t.db.update(userTable).set({ role }).where(eq(userTable.email, email));
}

const deleteAccount = (cookie: string, json: unknown) => t.request("/api/account", { method: "DELETE", cookie, json });
const confirmPassword = (cookie: string, json: unknown) =>
  t.request("/api/account/confirm-password", { method: "POST", cookie, json });

/** The session behind a cookie: the token is the signed value's part before the dot. */
async function sessionOf(cookie: string) {
  const token = decodeURIComponent(cookie.split("=")[1]!).split(".")[0]!;
  const [row] = await t.db.select().from(sessionTable).where(eq(sessionTable.token, token));
  return row!;
}

/** Sets, in minutes ago, when the cookie's session signed in and when its password was last entered again. */
async function setSessionTimes(cookie: string, times: { signedIn: number; passwordConfirmed?: number }) {
  const { id } = await sessionOf(cookie);
  const ago = (minutes: number) => sql`now() - make_interval(mins => ${minutes})`;
  await t.db
    .update(sessionTable)
    .set({
      createdAt: ago(times.signedIn),
      passwordConfirmedAt: times.passwordConfirmed === undefined ? null : ago(times.passwordConfirmed),
    })
    .where(eq(sessionTable.id, id));
}

const FRESH_MINUTES = FRESH_SESSION_MS / 60_000;

describe("GET /api/account/sessions", () => {
  it("needs a session", async () => {
    expect((await t.request("/api/account/sessions")).status).toBe(401);
  });

  it("lists the caller's unexpired sessions, most recently active first, marks the current one, and shows no token", async () => {
    const { user, cookie, otherDevice, id } = await learnerOnTwoDevices();
    const stranger = await t.signedInUser();
    // A third session that has expired, and the other device last active yesterday.
    const expiredCookie = await t.signIn(user);
    const rows = await t.db.select().from(sessionTable).where(eq(sessionTable.userId, id));
    const tokenOf = (cookieHeader: string) => decodeURIComponent(cookieHeader.split("=")[1]!).split(".")[0]!;
    const byToken = new Map(rows.map((row) => [row.token, row]));
    const current = byToken.get(tokenOf(cookie))!;
    const other = byToken.get(tokenOf(otherDevice))!;
    const expired = byToken.get(tokenOf(expiredCookie))!;
    await t.db
      .update(sessionTable)
      .set({ updatedAt: sql`now() - interval '1 day'` })
      .where(eq(sessionTable.id, other.id));
    await t.db
      .update(sessionTable)
      .set({ expiresAt: sql`now() - interval '1 minute'` })
      .where(eq(sessionTable.id, expired.id));

    const response = await t.request("/api/account/sessions", { cookie, headers: { "user-agent": "Test browser" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    for (const row of rows) expect(text).not.toContain(row.token);
    const { sessions } = JSON.parse(text);
    expect(sessions).toEqual([
      {
        id: current.id,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        expiresAt: expect.any(String),
        ipAddress: current.ipAddress,
        userAgent: current.userAgent,
        current: true,
      },
      expect.objectContaining({ id: other.id, current: false }),
    ]);
    expect(Object.keys(sessions[1]).sort()).toEqual(
      ["createdAt", "current", "expiresAt", "id", "ipAddress", "updatedAt", "userAgent"].sort(),
    );
    const [strangerSession] = await t.db
      .select({ id: sessionTable.id })
      .from(sessionTable)
      .where(eq(sessionTable.userId, await idOf(stranger.user.email)));
    expect(sessions.map((listed: { id: string }) => listed.id)).not.toContain(strangerSession!.id);
  });
});

describe("POST /api/account/sessions/revoke-others", () => {
  it("signs out every other device of the caller, keeps the current one, and leaves other accounts alone", async () => {
    const { user, cookie, otherDevice } = await learnerOnTwoDevices();
    const thirdDevice = await t.signIn(user);
    const stranger = await t.signedInUser();

    const response = await t.request("/api/account/sessions/revoke-others", { method: "POST", cookie });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ revoked: 2 });
    expect(await profileStatus(cookie)).toBe(200);
    expect(await profileStatus(otherDevice)).toBe(401);
    expect(await profileStatus(thirdDevice)).toBe(401);
    expect(await profileStatus(stranger.cookie)).toBe(200);
    const { sessions } = await (await t.request("/api/account/sessions", { cookie })).json();
    expect(sessions).toHaveLength(1);

    const again = await t.request("/api/account/sessions/revoke-others", { method: "POST", cookie });
    expect(await again.json()).toEqual({ revoked: 0 });
  });

  it("needs a session", async () => {
    expect((await t.request("/api/account/sessions/revoke-others", { method: "POST" })).status).toBe(401);
  });
});

describe("GET /api/account/export", () => {
  it("needs a session", async () => {
    expect((await t.request("/api/account/export")).status).toBe(401);
  });

  it("downloads everything the account holds as JSON, and nothing secret", async () => {
    const { user, cookie, otherDevice, id } = await learnerOnTwoDevices();
    const avatar = await uploadAvatar(cookie);
    await t.request("/api/profile", {
      method: "PATCH",
      cookie,
      json: { firstName: "Alex", lastName: "Tan", nickname: "Lex" },
    });
    await t.request("/api/settings", { method: "PATCH", cookie, json: { theme: "dark", emailNotifications: false } });
    // Every task of day 1, so the export holds the day's completion too.
    const dayOne = await completeDayAsLearner(t, cookie, "chapter-1", "day-1");
    expect(dayOne).toEqual(allAnswered(dayOne));
    const dayOneTasks = t.course[0]!.days[0]!.tasks.map((task) => task.id).sort();
    const dayOnePractice = practiceSetOf(t.course[0]!.days[0]!, "codebook:practice")!;
    const dayOneSaidLines = [
      ...shadowingOf(t.course[0]!.days[0]!, "codebook:listen-shadow")!.lineIds,
      ...t.course[0]!.days[0]!.liveSession!.blocks.flatMap((rolePlay) => rolePlay.phrases.map((phrase) => phrase.id)),
    ].sort();
    await sendContactMessage(cookie, "Terima kasih, Jalan!");

    const tutor = await t.signedInUser({ firstName: "Siti", lastName: "Aminah" });
    await makeRole(tutor.user.email, "Tutor");
    const feedback = await t.request("/api/feedback", {
      method: "POST",
      cookie: tutor.cookie,
      json: { studentId: id, chapterId: "chapter-1", dayId: "day-1", feedback: "Sebutan anda bagus." },
    });
    expect(feedback.status).toBe(201);
    // Another learner's data stays out of this export.
    const stranger = await t.signedInUser();
    await sendContactMessage(stranger.cookie, "Someone else's message");
    await t.request("/api/feedback", {
      method: "POST",
      cookie: tutor.cookie,
      json: { studentId: await idOf(stranger.user.email), chapterId: "chapter-1", dayId: "day-2", feedback: "Lain." },
    });

    const { jar, totpURI, backupCodes } = await enableTwoFactor(t, user.password, cookie);
    const response = await t.request("/api/account/export", { cookie: jar.header });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="jalan-my-data-${today}.json"`);

    const raw = await response.text();
    const iso = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(JSON.parse(raw)).toEqual({
      exportedAt: iso,
      profile: {
        id,
        email: user.email,
        emailVerified: false,
        firstName: "Alex",
        lastName: "Tan",
        nickname: "Lex",
        role: "Student",
        createdAt: iso,
        updatedAt: iso,
        avatar,
      },
      settings: {
        theme: "dark",
        emailNotifications: false,
        twoFactorEnabled: true,
        dailyGoalUnit: "reviews",
        dailyGoal: 20,
        timeZone: "Asia/Kuala_Lumpur",
        reminderHour: 19,
        newCardsPerDay: 15,
      },
      progress: dayOneTasks.map((taskId) => ({
        chapterId: "chapter-1",
        dayId: "day-1",
        taskId,
        status: "completed",
        updatedAt: iso,
      })),
      completedDays: [{ chapterId: "chapter-1", dayId: "day-1", completedAt: iso }],
      // Day 1's practice set, every item answered right once, in the order answered.
      answers: dayOnePractice.items.map((item) => ({
        clientId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        chapterId: "chapter-1",
        dayId: "day-1",
        taskId: dayOnePractice.task.id,
        itemId: item.id,
        given: rightAnswer(item).answer,
        correct: true,
        answeredAt: iso,
      })),
      feedbackReceived: [
        {
          chapterId: "chapter-1",
          dayId: "day-1",
          feedback: "Sebutan anda bagus.",
          createdAt: iso,
          correctedAt: null,
          tutorName: "Siti Aminah",
        },
      ],
      contactMessages: [
        { fullName: "Alex Tan", email: "alex@example.com", message: "Terima kasih, Jalan!", createdAt: iso },
      ],
      // Day 1 met, but its review cards are made when review is first read, none was answered, and
      // the goal never changed (src/server/modules/review/review.db.test.ts exports all three).
      reviewLog: [],
      reviewCards: [],
      dailyGoalChanges: [],
      // No take recorded (src/server/modules/speaking/speaking.db.test.ts exports them): day 1's
      // dialogue and role-plays said aloud, so each of their lines was heard and said.
      recordings: [],
      speakingSubmissions: [],
      // No hours set and no session booked (src/server/modules/bookings/bookings.db.test.ts exports them).
      tutorHours: null,
      bookings: [],
      bookingMessages: [],
      // No calendar feed made (src/server/modules/calendar/calendar.db.test.ts exports one).
      calendarFeed: null,
      // No session room's chat (tests/session-room.db.test.ts exports it).
      callMessages: [],
      sessionRecords: [],
      // No session rated (tests/session-rating.db.test.ts exports one).
      sessionRatings: [],
      notices: [],
      quietDays: [],
      // Not a voice of the course (src/server/modules/voices/voices.db.test.ts exports a voice's grant).
      voice: null,
      voiceConsents: [],
      studioTakes: [],
      linePractice: expect.toSatisfy(
        (lines: { lineId: string }[]) =>
          JSON.stringify(lines.map((line) => line.lineId).sort()) === JSON.stringify(dayOneSaidLines),
      ),
      sessions: [
        {
          id: expect.any(String),
          createdAt: iso,
          updatedAt: iso,
          expiresAt: iso,
          ipAddress: expect.toBeOneOf([expect.any(String), null]),
          userAgent: expect.toBeOneOf([expect.any(String), null]),
          current: true,
        },
        expect.objectContaining({ current: false }),
      ],
      twoFactorEnabled: true,
    });

    for (const line of JSON.parse(raw).linePractice) {
      expect(line).toEqual({
        chapterId: "chapter-1",
        dayId: "day-1",
        lineId: line.lineId,
        listenedAt: iso,
        saidAloudAt: iso,
      });
    }

    // Nothing secret: no session token, password hash, two-factor secret or backup code, in any form.
    const sessions = await t.db
      .select({ token: sessionTable.token })
      .from(sessionTable)
      .where(eq(sessionTable.userId, id));
    const [credential] = await t.db.select().from(accountTable).where(eq(accountTable.userId, id));
    const [secondFactor] = await t.db.select().from(twoFactorTable).where(eq(twoFactorTable.userId, id));
    const secrets = [
      ...sessions.map((row) => row.token),
      decodeURIComponent(otherDevice.split("=")[1]!),
      credential!.password!,
      ...credential!.password!.split(":"),
      secondFactor!.secret,
      secondFactor!.backupCodes,
      new URL(totpURI).searchParams.get("secret")!,
      parseTotpUri(totpURI).secret.toString(),
      ...backupCodes,
    ];
    expect(sessions).toHaveLength(2);
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      expect(raw).not.toContain(secret);
    }
    expect(raw).not.toMatch(/"(token|password|secret|backupCodes)"/);
  });
});

describe("DELETE /api/account", () => {
  it("needs a session", async () => {
    expect((await deleteAccount("", { password: "kopi-o-kosong" })).status).toBe(401);
  });

  it.each([
    ["a wrong password", { password: "teh-tarik" }, "INVALID_PASSWORD"],
    ["no password", {}, "BAD_REQUEST"],
    ["an empty password", { password: "" }, "BAD_REQUEST"],
    ["a password that is not text", { password: 123456 }, "BAD_REQUEST"],
    ["a password longer than any allowed", { password: "x".repeat(129) }, "BAD_REQUEST"],
  ])("refuses %s with 400 'That password is not correct.' and deletes nothing", async (_label, body, code) => {
    const { user, cookie, id } = await learnerOnTwoDevices();
    const response = await deleteAccount(cookie, body);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toMatchObject({ code, message: "That password is not correct." });
    expect(response.headers.getSetCookie().join()).not.toMatch(/session_token=;/);
    expect(await profileStatus(cookie)).toBe(200);
    expect(await t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.id, id))).toHaveLength(1);
    expect(await t.signIn(user)).toContain("session_token");
  });

  it("refuses an oversize body with 413, before checking any password", async () => {
    const { cookie } = await learnerOnTwoDevices();
    const response = await deleteAccount(cookie, { password: "x".repeat(100_000) });
    expect(response.status).toBe(413);
    expect(await profileStatus(cookie)).toBe(200);
  });

  it("refuses a body that names another account, and deletes nothing", async () => {
    const { user, cookie } = await learnerOnTwoDevices();
    const victim = await t.signedInUser();
    const response = await deleteAccount(cookie, { password: user.password, userId: await idOf(victim.user.email) });
    expect(response.status).toBe(400);
    expect(await profileStatus(cookie)).toBe(200);
    expect(await profileStatus(victim.cookie)).toBe(200);
  });

  it("deletes the account and everything of it: every table, the avatar files, every session; the old password no longer signs in", async () => {
    const { user, cookie, otherDevice, id } = await learnerOnTwoDevices();
    const avatar = await uploadAvatar(cookie);
    expect((await avatarFiles()).filter((file) => file.startsWith(id))).toHaveLength(2);
    await t.request("/api/progress/chapter-1/day-1/story:read-dialog", {
      method: "PUT",
      cookie,
      json: { status: "completed" },
    });
    await sendContactMessage(cookie, "Saya mahu belajar.");
    const tutor = await t.signedInUser();
    await makeRole(tutor.user.email, "Tutor");
    await t.request("/api/feedback", {
      method: "POST",
      cookie: tutor.cookie,
      json: { studentId: id, chapterId: "chapter-1", dayId: "day-1", feedback: "Bagus!" },
    });
    // A password reset link not yet used, and two-factor on with a sign-in waiting for its code.
    await t.request("/api/auth/request-password-reset", {
      method: "POST",
      json: { email: user.email, redirectTo: "/reset-password" },
    });
    const { jar } = await enableTwoFactor(t, user.password, cookie);
    const pendingSignIn = cookieJar();
    pendingSignIn.store(
      await t.request("/api/auth/sign-in/email", {
        method: "POST",
        json: { email: user.email, password: user.password },
      }),
    );
    expect(pendingSignIn.names()).toEqual(["better-auth.two_factor"]);
    // Better Auth keys a sign-in's attempt counter by the sign-in's identifier, not by the user.
    const pending = await t.db.select().from(verification).where(eq(verification.value, id));
    const counters = pending.map((row) => `2fa-attempts-${row.identifier}`);
    const mine = or(eq(verification.value, id), inArray(verification.identifier, counters));
    expect(pending.map((row) => row.identifier.replace(/[-:].*/, "")).sort()).toEqual(["2fa", "reset"]);
    expect(await t.db.select().from(verification).where(mine)).toHaveLength(3);
    // Someone else's data, which must all stay.
    const stranger = await t.signedInUser();
    await sendContactMessage(stranger.cookie, "Hello from someone else");
    // The reset email is in the outbox with its link; a reminder waits unsent, its address in
    // another case; the stranger has mail too.
    await t.db.insert(mailOutbox).values({
      recipient: user.email.toUpperCase(),
      subject: "Time for your Malay review",
      body: "Your cards are waiting.",
    });
    const mailTo = (address: string) =>
      t.db.select().from(mailOutbox).where(sql`lower(${mailOutbox.recipient}) = lower(${address})`);
    expect((await mailTo(user.email)).map((mail) => mail.subject)).toEqual(
      expect.arrayContaining(["Reset your Jalan password", "Time for your Malay review"]),
    );
    const strangersMail = await mailTo(stranger.user.email);
    expect(strangersMail.length).toBeGreaterThan(0);

    const response = await deleteAccount(jar.header, { password: user.password });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ deleted: true });
    const expiring = response.headers.getSetCookie().find((cookie) => cookie.startsWith("better-auth.session_token="));
    expect(expiring).toMatch(/^better-auth\.session_token=;/);
    expect(expiring).toMatch(/Max-Age=0/i);

    const nothing = async (rows: Promise<unknown[]>) => expect(await rows).toEqual([]);
    await nothing(
      t.db
        .select()
        .from(userTable)
        .where(or(eq(userTable.id, id), eq(userTable.email, user.email))),
    );
    await nothing(t.db.select().from(sessionTable).where(eq(sessionTable.userId, id)));
    await nothing(t.db.select().from(accountTable).where(eq(accountTable.userId, id)));
    await nothing(t.db.select().from(taskProgress).where(eq(taskProgress.userId, id)));
    await nothing(t.db.select().from(tutorFeedback).where(eq(tutorFeedback.studentId, id)));
    await nothing(
      t.db
        .select()
        .from(contactMessage)
        .where(or(eq(contactMessage.userId, id), eq(contactMessage.message, "Saya mahu belajar."))),
    );
    await nothing(t.db.select().from(twoFactorTable).where(eq(twoFactorTable.userId, id)));
    await nothing(t.db.select().from(verification).where(mine));
    await nothing(mailTo(user.email));
    expect(await mailTo(stranger.user.email)).toEqual(strangersMail);
    expect((await avatarFiles()).filter((file) => file.startsWith(id))).toEqual([]);
    expect((await t.request(avatar.small)).status).toBe(404);

    for (const stale of [cookie, otherDevice, jar.header]) expect(await profileStatus(stale)).toBe(401);
    const signIn = await t.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: user.email, password: user.password },
    });
    expect(signIn.status).toBe(401);
    const finish = await t.request("/api/auth/two-factor/verify-backup-code", {
      method: "POST",
      cookie: pendingSignIn.header,
      json: { code: "aaaaa-bbbbb" },
    });
    expect(finish.status).toBe(401);

    expect(await profileStatus(stranger.cookie)).toBe(200);
    expect(
      await t.db.select().from(contactMessage).where(eq(contactMessage.message, "Hello from someone else")),
    ).toHaveLength(1);
  });

  it("keeps the feedback a deleted tutor wrote, without its author", async () => {
    const tutor = await t.signedInUser();
    await makeRole(tutor.user.email, "Tutor");
    const learner = await t.signedInUser();
    const learnerId = await idOf(learner.user.email);
    await t.request("/api/feedback", {
      method: "POST",
      cookie: tutor.cookie,
      json: { studentId: learnerId, chapterId: "chapter-1", dayId: "day-1", feedback: "Teruskan!" },
    });
    expect((await deleteAccount(tutor.cookie, { password: tutor.user.password })).status).toBe(200);
    const [row] = await t.db.select().from(tutorFeedback).where(eq(tutorFeedback.studentId, learnerId));
    expect(row).toMatchObject({ feedback: "Teruskan!", tutorId: null });
    const { feedback } = await (await t.request("/api/feedback", { cookie: learner.cookie })).json();
    expect(feedback).toEqual([expect.objectContaining({ feedback: "Teruskan!", tutorName: null })]);
  });

  describe("the last Admin", () => {
    async function admin(): Promise<{ user: TestUser; cookie: string }> {
      const signedIn = await t.signedInUser();
      await makeRole(signedIn.user.email, "Admin");
      return signedIn;
    }

    async function withOnlyTheseAdmins<T>(run: () => Promise<T>): Promise<T> {
      await t.db.update(userTable).set({ role: "Student" }).where(eq(userTable.role, "Admin"));
      return run();
    }

    it("cannot delete their account (409 LAST_ADMIN), and nothing is deleted; with another Admin they can", async () => {
      await withOnlyTheseAdmins(async () => {
        const first = await admin();
        const refused = await deleteAccount(first.cookie, { password: first.user.password });
        expect(refused.status).toBe(409);
        expect((await refused.json()).error).toEqual({
          code: "LAST_ADMIN",
          message: "Jalan needs at least one admin. Make someone else an admin first.",
        });
        expect(await profileStatus(first.cookie)).toBe(200);

        const second = await admin();
        expect((await deleteAccount(first.cookie, { password: first.user.password })).status).toBe(200);
        const last = await deleteAccount(second.cookie, { password: second.user.password });
        expect(last.status).toBe(409);
        expect(await profileStatus(second.cookie)).toBe(200);
      });
    });

    it("is kept when the last two Admins delete their accounts at the same moment", async () => {
      await withOnlyTheseAdmins(async () => {
        const [a, b] = [await admin(), await admin()];
        const answers = await Promise.all([
          deleteAccount(a.cookie, { password: a.user.password }),
          deleteAccount(b.cookie, { password: b.user.password }),
        ]);
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
        const [admins] = await t.db
          .select({ n: sql<number>`count(*)::int` })
          .from(userTable)
          .where(eq(userTable.role, "Admin"));
        expect(admins!.n).toBe(1);
      });
    });

    it("waits for a role change under way, then sees its result: demoting the other Admin makes this one the last", async () => {
      await withOnlyTheseAdmins(async () => {
        const [a, b] = [await admin(), await admin()];
        const bId = await idOf(b.user.email);
        let locked!: () => void;
        let release!: () => void;
        const lockTaken = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const released = new Promise<void>((resolve) => {
          release = resolve;
        });
        // A role change that holds the lock role changes take, and demotes B once released.
        const roleChange = t.db.transaction(async (tx) => {
          await t.modules.users.service.lockAdminChanges(tx);
          locked();
          await released;
          await tx.update(userTable).set({ role: "Student" }).where(eq(userTable.id, bId));
        });
        await lockTaken;
        let answered = false;
        const deletion = (async () => {
          const response = await deleteAccount(a.cookie, { password: a.user.password });
          answered = true;
          return response;
        })();
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(answered, "the deletion went ahead while a role change held the lock").toBe(false);
        release();
        await roleChange;
        const response = await deletion;
        expect(response.status).toBe(409);
        expect((await response.json()).error.code).toBe("LAST_ADMIN");
        expect(await profileStatus(a.cookie)).toBe(200);
      });
    });
  });

  it("is the only way to delete an account: Better Auth's own /delete-user is off", async () => {
    const { user, cookie } = await learnerOnTwoDevices();
    const response = await t.request("/api/auth/delete-user", {
      method: "POST",
      cookie,
      json: { password: user.password },
    });
    expect(response.status).toBe(404);
    expect(await profileStatus(cookie)).toBe(200);
  });

  it("expires the session cookie even when the session was due for renewal on this request", async () => {
    const { user, cookie, id } = await learnerOnTwoDevices();
    await t.db
      .update(sessionTable)
      .set({ expiresAt: new Date(Date.now() + 24 * 60 * 60 * 1000) })
      .where(eq(sessionTable.userId, id));
    const response = await deleteAccount(cookie, { password: user.password });
    expect(response.status).toBe(200);
    const sessionCookies = response.headers.getSetCookie().filter((value) => value.includes("session_token="));
    expect(sessionCookies).toHaveLength(1);
    expect(sessionCookies[0]).toMatch(/^better-auth\.session_token=;/);
    expect(cookieFrom(response)).not.toMatch(/session_token=[^;]/);
  });
});

describe("a fresh session for the export and the device list", () => {
  const PASSWORD_REQUIRED = { code: "PASSWORD_REQUIRED", message: "Please enter your password again to continue." };

  it.each(["/api/account/export", "/api/account/sessions"])(
    "%s answers 403 PASSWORD_REQUIRED unless the session signed in, or entered its password, within the last minutes",
    async (path) => {
      const { user, cookie } = await t.signedInUser();
      const statusAfter = async (times: { signedIn: number; passwordConfirmed?: number }) => {
        await setSessionTimes(cookie, times);
        const response = await t.request(path, { cookie });
        // Read whole, as a browser does: an export is in progress until its download is.
        await response.text();
        return response.status;
      };
      expect(await statusAfter({ signedIn: FRESH_MINUTES - 1 })).toBe(200);
      expect(await statusAfter({ signedIn: 60, passwordConfirmed: FRESH_MINUTES - 1 })).toBe(200);
      expect(await statusAfter({ signedIn: 60, passwordConfirmed: FRESH_MINUTES + 1 })).toBe(403);

      await setSessionTimes(cookie, { signedIn: FRESH_MINUTES + 1 });
      const refused = await t.request(path, { cookie });
      expect(refused.status).toBe(403);
      const text = await refused.text();
      expect(JSON.parse(text)).toEqual({ error: PASSWORD_REQUIRED });
      expect(text).not.toContain(user.email);
      expect(refused.headers.get("content-disposition")).toBeNull();
    },
  );

  it("confirm-password checks the password and makes this session fresh, and only this one", async () => {
    const { user, cookie, otherDevice } = await learnerOnTwoDevices();
    for (const device of [cookie, otherDevice]) await setSessionTimes(device, { signedIn: 60 });
    expect((await t.request("/api/account/export", { cookie })).status).toBe(403);

    const before = Date.now();
    const response = await confirmPassword(cookie, { password: user.password });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ confirmed: true });
    const confirmedAt = (await sessionOf(cookie)).passwordConfirmedAt!.getTime();
    expect(confirmedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(confirmedAt).toBeLessThanOrEqual(Date.now() + 1000);
    expect((await sessionOf(otherDevice)).passwordConfirmedAt).toBeNull();

    const exported = await t.request("/api/account/export", { cookie });
    expect(exported.status).toBe(200);
    await exported.text();
    expect((await t.request("/api/account/sessions", { cookie })).status).toBe(200);
    for (const path of ["/api/account/export", "/api/account/sessions"]) {
      expect((await t.request(path, { cookie: otherDevice })).status).toBe(403);
    }
  });

  it("a renewal of the session does not make it fresh: only signing in or the password does", async () => {
    const { cookie } = await t.signedInUser();
    await setSessionTimes(cookie, { signedIn: 25 * 60 });
    const { id } = await sessionOf(cookie);
    await t.db
      .update(sessionTable)
      .set({ expiresAt: sql`now() + interval '29 days' - interval '1 hour'` })
      .where(eq(sessionTable.id, id));
    const response = await t.request("/api/account/sessions", { cookie });
    expect(response.status).toBe(403);
    // Better Auth did renew it on this very request.
    expect(response.headers.getSetCookie().some((value) => value.startsWith("better-auth.session_token="))).toBe(true);
    expect((await t.request("/api/account/sessions", { cookie })).status).toBe(403);
  });

  it.each([
    ["a wrong password", { password: "teh-tarik" }, "INVALID_PASSWORD"],
    ["no password", {}, "BAD_REQUEST"],
    ["an empty password", { password: "" }, "BAD_REQUEST"],
    ["a password that is not text", { password: 123456 }, "BAD_REQUEST"],
    ["a password longer than any allowed", { password: "x".repeat(129) }, "BAD_REQUEST"],
  ])(
    "confirm-password refuses %s with 400 'That password is not correct.' and confirms nothing",
    async (_label, body, code) => {
      const { cookie } = await t.signedInUser();
      await setSessionTimes(cookie, { signedIn: 60 });
      const response = await confirmPassword(cookie, body);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toMatchObject({ code, message: "That password is not correct." });
      expect((await sessionOf(cookie)).passwordConfirmedAt).toBeNull();
      expect((await t.request("/api/account/export", { cookie })).status).toBe(403);
    },
  );

  it("confirm-password needs a session", async () => {
    expect((await confirmPassword("", { password: "kopi-o-kosong" })).status).toBe(401);
  });
});

describe("password checks with RATE_LIMIT on", () => {
  let addresses = 0;
  /** A client address no other request in this file used. */
  const newAddress = () => {
    addresses += 1;
    return `198.51.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
  };
  const send = (path: string, method: string, cookie: string, password: string, clientIp: string) =>
    limited.request(path, { method, cookie, json: { password }, clientIp });
  const tryToDelete = (cookie: string, password: string, clientIp: string) =>
    send("/api/account", "DELETE", cookie, password, clientIp);
  const tryToConfirm = (cookie: string, password: string, clientIp: string) =>
    send("/api/account/confirm-password", "POST", cookie, password, clientIp);

  async function expectLimited(response: Response, rule: { windowSeconds: number }) {
    expect(response.status).toBe(429);
    const { error } = await response.json();
    expect(error.code).toBe("TOO_MANY_REQUESTS");
    expect(error.message).toMatch(/^Too many password attempts\. Please try again in \d+ minutes?\.$/);
    const retryAfter = Number(response.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(rule.windowSeconds);
  }

  const userRows = (id: string) => t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.id, id));

  it("limits one account's checks from any number of addresses; past it even the right password changes nothing", async () => {
    const { user, cookie, id } = await learnerOnTwoDevices();
    await setSessionTimes(cookie, { signedIn: 60 });
    const rule = LIMITS.passwordChecksPerUser;
    // Both routes count against the same limit, each guess from a new address.
    for (let attempt = 0; attempt < rule.max; attempt += 1) {
      const guess = attempt % 2 === 0 ? tryToDelete : tryToConfirm;
      expect((await guess(cookie, `guess-${attempt}`, newAddress())).status).toBe(400);
    }

    await expectLimited(await tryToDelete(cookie, user.password, newAddress()), rule);
    await expectLimited(await tryToConfirm(cookie, user.password, newAddress()), rule);
    expect(await userRows(id)).toHaveLength(1);
    expect(await profileStatus(cookie)).toBe(200);
    expect((await sessionOf(cookie)).passwordConfirmedAt).toBeNull();
    expect((await limited.request("/api/account/export", { cookie })).status).toBe(403);

    // Someone else's checks, from an address this account used, go on.
    const other = await t.signedInUser();
    expect((await tryToConfirm(other.cookie, other.user.password, `198.51.0.${addresses}`)).status).toBe(200);
  });

  it("limits one address's checks across accounts; the same account elsewhere is not held back", async () => {
    const address = newAddress();
    const rule = LIMITS.passwordChecksPerAddress;
    for (let account = 0; account < rule.max; account += 1) {
      const { cookie } = await t.signedInUser();
      expect((await tryToConfirm(cookie, "teh-tarik", address)).status).toBe(400);
    }

    const { user, cookie, id } = await learnerOnTwoDevices();
    await expectLimited(await tryToDelete(cookie, user.password, address), rule);
    await expectLimited(await tryToConfirm(cookie, user.password, address), rule);
    expect(await userRows(id)).toHaveLength(1);
    expect(await profileStatus(cookie)).toBe(200);
    expect((await sessionOf(cookie)).passwordConfirmedAt).toBeNull();

    expect((await tryToDelete(cookie, user.password, newAddress())).status).toBe(200);
    expect(await userRows(id)).toEqual([]);
  }, 60_000);
});
