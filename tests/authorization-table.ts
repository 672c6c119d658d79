import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import sharp from "sharp";
import { servedCardId } from "#course/review-rules";

/**
 * Who may call what: every API route the app serves, against every kind of caller (QUALITY.md,
 * "Access control"). tests/authorization.db.test.ts sends each cell's request and checks the answer
 * and, on a deny, that the database is unchanged; it also fails when the app serves an API route that
 * is missing here.
 *
 * Better Auth's own routes (/api/auth/*) are not listed: that library guards them itself, and the
 * app hands it the whole path. /healthz and /media/avatars/:file are outside /api and public.
 */

export const ACTORS = [
  "anonymous",
  /** A learner (role Student) acting on themself: every :userId and studentId is their own id. */
  "learner",
  /** A second learner, acting on the first learner's id wherever a route takes a user id. */
  "otherLearner",
  "tutor",
  "admin",
  /** An Admin's session whose expires_at is in the past. */
  "expiredSession",
  /** An Admin's session that was signed out, its old cookie sent again. */
  "revokedSession",
  /**
   * An Admin's live session that signed in over FRESH_SESSION_MS ago and has not entered the
   * password again since (src/server/auth/session.ts): the other actors' sessions are fresh.
   */
  "staleSession",
  /** A Tutor acting on a member of staff: wherever a route takes a user id, an Admin's. */
  "tutorOnStaff",
  /** An Admin acting on a member of staff: wherever a route takes a user id, a Tutor's. */
  "adminOnStaff",
] as const;

export type Actor = (typeof ACTORS)[number];

/**
 * "allow": any 2xx; "403-password": 403 PASSWORD_REQUIRED, the session must enter the password
 * again first; otherwise the exact status (401 UNAUTHORIZED, 403 FORBIDDEN, 404 NOT_FOUND: a
 * learner's take, whose id tells nobody else it exists); "426-upgrade": let in, and told the route is a
 * WebSocket (426 UPGRADE_REQUIRED), as a plain request to a session room's socket is.
 */
export type Outcome = "allow" | "401" | "403" | "403-password" | "404" | "426-upgrade";

export interface RequestContext {
  /**
   * What every route with a user id addresses: the first learner's id, or for the staff-on-staff
   * actors a member of staff's.
   */
  targetId: string;
  /** The caller's password (every test account has the same), for routes that ask for it again. */
  password: string;
  /** Unique to each request, for values that must differ from one call to the next. */
  serial: number;
  /** The token of the unsubscribe link a reminder to this account would carry now. */
  unsubscribeToken: (userId: string) => Promise<string>;
  /** The id of the take of day 1's "line-selamat-pagi" each account holds before every cell. */
  takeOf: (userId: string) => string;
  /** The role-play each account sent before every cell, waiting for a tutor, and the one take in it. */
  sentOf: (userId: string) => { submissionId: string; takeId: string };
  /**
   * The sessions each account booked before every cell, as learner, with a tutor who is none of the
   * actors: one days ahead with a new time proposed and waiting, one that started a day ago, and one
   * two days ago that its tutor ended (held).
   */
  bookingOf: (userId: string) => { upcoming: string; past: string; held: string };
  /** The note the tutor actor sent the first learner, held before every cell. */
  feedbackId: string;
  /** That tutor, who takes bookings at any :00 and :30 (UTC) with no notice, and a free one of them. */
  bookingTutor: { id: string; freeSlot: string };
  /** The token of the calendar feed each account holds before every cell, by account id. */
  feedTokenOf: (userId: string) => string;
  /** The tutor actor, a voice of the course with a standing consent before every cell; no other actor is one. */
  voiceId: string;
  /**
   * Sends a request to the app as the caller (with no cookie for anonymous), to prepare what the
   * route needs of the caller's own data, as a client would before the request under test.
   */
  asCaller: (path: string, init?: { method?: string; json?: unknown }) => Promise<Response>;
}

export interface RouteRequest {
  /** The concrete path, with ids filled in. */
  path: string;
  json?: unknown;
  body?: BodyInit;
  /** The connection's address, for routes rate-limited per client. */
  clientIp?: string;
}

export interface RouteRule {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The path as the app registers it (Hono's pattern, as `app.routes` lists it). */
  route: string;
  expected: Record<Actor, Outcome>;
  /** A request that succeeds for an allowed actor and, where the route writes, would change the data. */
  request: (context: RequestContext) => RouteRequest | Promise<RouteRequest>;
  /**
   * The route deletes the caller's own account. Each cell then calls it from a throwaway account
   * of the actor's kind (same role; a session expired or signed out the same way), made for that
   * cell, so an allowed call ends only that account and the next cell still has its actors.
   */
  deletesCaller?: true;
}

const ANYONE: Record<Actor, Outcome> = {
  anonymous: "allow",
  learner: "allow",
  otherLearner: "allow",
  tutor: "allow",
  admin: "allow",
  expiredSession: "allow",
  revokedSession: "allow",
  staleSession: "allow",
  tutorOnStaff: "allow",
  adminOnStaff: "allow",
};

const SIGNED_IN: Record<Actor, Outcome> = {
  anonymous: "401",
  learner: "allow",
  otherLearner: "allow",
  tutor: "allow",
  admin: "allow",
  expiredSession: "401",
  revokedSession: "401",
  staleSession: "allow",
  tutorOnStaff: "allow",
  adminOnStaff: "allow",
};

/** Anyone signed in, with a fresh session: the account's most revealing reads. */
const SIGNED_IN_FRESH: Record<Actor, Outcome> = { ...SIGNED_IN, staleSession: "403-password" };

/** Tutor and Admin (policy "tutor:view"). */
const STAFF: Record<Actor, Outcome> = { ...SIGNED_IN, learner: "403", otherLearner: "403" };

/**
 * Staff acting on someone's account (mayActOn in src/course/roles.ts): a Tutor on Students only, an
 * Admin on anyone.
 */
const STAFF_ON_STUDENTS: Record<Actor, Outcome> = { ...STAFF, tutorOnStaff: "403" };

/**
 * The note the tutor actor sent (RequestContext.feedbackId): its own tutor and Admins may correct or
 * withdraw it; tutorOnStaff is another Tutor, who did not write it.
 */
const NOTE_SENDER_AND_ADMINS: Record<Actor, Outcome> = { ...STAFF, tutorOnStaff: "403" };

/** A booking's two sides and Admins; to anyone else it is not there (404). */
const BOOKING_SIDES: Record<Actor, Outcome> = {
  ...SIGNED_IN,
  otherLearner: "404",
  tutor: "404",
  tutorOnStaff: "404",
};

/** Only the booking's learner (its tutor could; this tutor is not it): an Admin is refused (403). */
const BOOKING_LEARNER: Record<Actor, Outcome> = {
  ...BOOKING_SIDES,
  admin: "403",
  staleSession: "403",
  adminOnStaff: "403",
};

/** The booking's tutor and Admins: its learner is refused (403), anyone else finds nothing. */
const BOOKING_TUTOR: Record<Actor, Outcome> = { ...BOOKING_SIDES, learner: "403" };

/** The caller's own take only: anyone else's is not there (404). */
const OWNER_OF_TAKE: Record<Actor, Outcome> = {
  ...SIGNED_IN,
  otherLearner: "404",
  tutor: "404",
  admin: "404",
  staleSession: "404",
  tutorOnStaff: "404",
  adminOnStaff: "404",
};

/** A take's audio: its owner, and staff who may act on its owner (a Tutor on Students only). */
const TAKE_LISTENERS: Record<Actor, Outcome> = { ...STAFF_ON_STUDENTS, learner: "allow", otherLearner: "404" };

let takeWebm: Buffer | undefined;

function takeForm(): FormData {
  takeWebm ??= readFileSync("tests/fixtures/takes/chromium-2s.webm");
  const form = new FormData();
  form.set("chapterId", "chapter-1");
  form.set("dayId", "day-1");
  form.set("lineId", "card-pagi");
  form.set("take", new File([new Uint8Array(takeWebm)], "take.webm", { type: "audio/webm" }));
  return form;
}

/** Admin only (policy "admin:view"). */
const ADMIN: Record<Actor, Outcome> = { ...STAFF, tutor: "403", tutorOnStaff: "403" };

let avatarPng: Promise<Buffer> | undefined;

async function avatarForm(): Promise<FormData> {
  avatarPng ??= sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 20, g: 120, b: 90 } } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.set("avatar", new File([new Uint8Array(await avatarPng)], "me.png", { type: "image/png" }));
  return form;
}

/**
 * A voice's own consent: the tutor actor, the one voice among the actors. Staff who are no voice and
 * learners are refused (403).
 */
const THE_VOICE: Record<Actor, Outcome> = {
  ...STAFF,
  admin: "403",
  staleSession: "403",
  tutorOnStaff: "403",
  adminOnStaff: "403",
};

/** The studio's readers: voices who may record (the tutor actor) and Admins; another Tutor is refused. */
const STUDIO: Record<Actor, Outcome> = { ...STAFF, tutorOnStaff: "403" };

/** A review of the tutor voice's take: anyone of the studio but its own voice. */
const STUDIO_BUT_THE_VOICE: Record<Actor, Outcome> = { ...STUDIO, tutor: "403" };

/**
 * The studio's takes each world holds (tests/authorization.db.test.ts, seedStudio): by the tutor voice;
 * `inDialogue` published in Day 1's story dialogue, whose whole-dialogue recording is `dialogue`.
 */
export const STUDIO_TAKES = {
  inReview: "5a1e0000-0000-4000-8000-000000000001",
  published: "5a1e0000-0000-4000-8000-000000000002",
  inDialogue: "5a1e0000-0000-4000-8000-000000000003",
  dialogue: "5a1e0000-0000-4000-8000-000000000004",
} as const;

let wav: Buffer | undefined;

/** A second of a 220 Hz tone as a 16-bit mono WAV at 48 kHz: a master the studio takes. */
export function studioWav(): Buffer {
  if (wav) return wav;
  const rate = 48_000;
  const samples = Buffer.alloc(rate * 2);
  for (let i = 0; i < rate; i += 1)
    samples.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / rate)), i * 2);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + samples.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(samples.length, 40);
  wav = Buffer.concat([header, samples]);
  return wav;
}

const user = (id: string) => `/api/users/${encodeURIComponent(id)}`;
const voice = (id: string) => `/api/voices/${encodeURIComponent(id)}`;

export const AUTHORIZATION_TABLE: readonly RouteRule[] = [
  {
    method: "GET",
    route: "/api/profile",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/profile" }),
  },
  {
    method: "PATCH",
    route: "/api/profile",
    expected: SIGNED_IN,
    request: ({ serial }) => ({
      path: "/api/profile",
      json: { firstName: "Alex", lastName: "Tan", nickname: `Lex ${serial}` },
    }),
  },
  {
    method: "PUT",
    route: "/api/profile/avatar",
    expected: SIGNED_IN,
    request: async () => ({ path: "/api/profile/avatar", body: await avatarForm() }),
  },
  {
    // Visitors may write to us; a stale cookie is simply no sign-in.
    method: "POST",
    route: "/api/contact",
    expected: ANYONE,
    request: ({ serial }) => ({
      path: "/api/contact",
      json: { fullName: "Siti Aminah", email: "siti@example.com", message: `Terima kasih! (${serial})` },
      clientIp: `198.51.100.${serial % 250}`,
    }),
  },
  {
    method: "GET",
    route: "/api/admin/contact-messages",
    expected: ADMIN,
    request: () => ({ path: "/api/admin/contact-messages" }),
  },
  {
    method: "GET",
    route: "/api/settings",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/settings" }),
  },
  {
    // Every cell starts from the defaults (light, notifications on): this request changes both.
    method: "PATCH",
    route: "/api/settings",
    expected: SIGNED_IN,
    request: ({ serial }) => ({
      path: "/api/settings",
      json: { theme: serial % 2 === 0 ? "dark" : "system", emailNotifications: false },
    }),
  },
  {
    method: "GET",
    route: "/api/account/export",
    expected: SIGNED_IN_FRESH,
    request: () => ({ path: "/api/account/export" }),
  },
  {
    method: "GET",
    route: "/api/account/sessions",
    expected: SIGNED_IN_FRESH,
    request: () => ({ path: "/api/account/sessions" }),
  },
  {
    // How a stale session becomes fresh again; it writes only the caller's own session.
    method: "POST",
    route: "/api/account/confirm-password",
    expected: SIGNED_IN,
    request: ({ password }) => ({ path: "/api/account/confirm-password", json: { password } }),
  },
  {
    // The stale sessions' accounts are signed in on a second device too, which this would sign out.
    method: "POST",
    route: "/api/account/sessions/revoke-others",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/account/sessions/revoke-others" }),
  },
  {
    method: "DELETE",
    route: "/api/account",
    expected: SIGNED_IN,
    request: ({ password }) => ({ path: "/api/account", json: { password } }),
    deletesCaller: true,
  },
  {
    method: "GET",
    route: "/api/progress",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/progress" }),
  },
  {
    // The caller's own progress: the first learner has this task in progress, everyone else nothing.
    method: "PUT",
    route: "/api/progress/:chapterId/:dayId/:taskId",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/progress/chapter-1/day-1/story:read-dialog", json: { status: "completed" } }),
  },
  {
    // The caller's own answer to an item of day 1's practice set (tests/fixtures/course.ts), open to all.
    method: "POST",
    route: "/api/answers",
    expected: SIGNED_IN,
    request: () => ({
      path: "/api/answers",
      json: {
        clientId: randomUUID(),
        chapterId: "chapter-1",
        dayId: "day-1",
        taskId: "codebook:practice",
        itemId: "what-alex-ordered",
        given: { choiceId: "kopi-o" },
      },
    }),
  },
  {
    // The caller's own answers: which items of the set they have answered right.
    method: "GET",
    route: "/api/answers/:chapterId/:dayId/:taskId",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/answers/chapter-1/day-1/codebook:practice" }),
  },
  {
    method: "GET",
    route: "/api/users",
    expected: STAFF,
    request: () => ({ path: "/api/users?search=a&page=1&perPage=5" }),
  },
  {
    method: "PATCH",
    route: "/api/users/:userId/role",
    expected: ADMIN,
    request: ({ targetId }) => ({ path: `${user(targetId)}/role`, json: { role: "Admin" } }),
  },
  {
    method: "GET",
    route: "/api/users/:userId/progress",
    expected: STAFF_ON_STUDENTS,
    request: ({ targetId }) => ({ path: `${user(targetId)}/progress` }),
  },
  {
    // Moves a completed task back, which only staff may do, on a day the learner has not unlocked.
    method: "PUT",
    route: "/api/users/:userId/progress/:chapterId/:dayId/:taskId",
    expected: STAFF_ON_STUDENTS,
    request: ({ targetId }) => ({
      path: `${user(targetId)}/progress/chapter-1/day-1/story:read-setting`,
      json: { status: "in-progress" },
    }),
  },
  {
    method: "DELETE",
    route: "/api/users/:userId/progress",
    expected: STAFF_ON_STUDENTS,
    request: ({ targetId }) => ({ path: `${user(targetId)}/progress` }),
  },
  {
    method: "POST",
    route: "/api/feedback",
    expected: STAFF_ON_STUDENTS,
    request: ({ targetId, serial }) => ({
      path: "/api/feedback",
      json: { studentId: targetId, chapterId: "chapter-1", dayId: "day-1", feedback: `Bagus! (${serial})` },
    }),
  },
  {
    // Everyone reads only the feedback they received.
    method: "GET",
    route: "/api/feedback",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/feedback" }),
  },
  {
    // What the target received: staff who may act on them read it.
    method: "GET",
    route: "/api/feedback/learners/:studentId",
    expected: STAFF_ON_STUDENTS,
    request: ({ targetId }) => ({ path: `/api/feedback/learners/${encodeURIComponent(targetId)}` }),
  },
  {
    method: "PATCH",
    route: "/api/feedback/:id",
    expected: NOTE_SENDER_AND_ADMINS,
    request: ({ feedbackId, serial }) => ({
      path: `/api/feedback/${feedbackId}`,
      json: { feedback: `Sebutan anda sangat bagus. (${serial})` },
    }),
  },
  {
    method: "DELETE",
    route: "/api/feedback/:id",
    expected: NOTE_SENDER_AND_ADMINS,
    request: ({ feedbackId }) => ({ path: `/api/feedback/${feedbackId}` }),
  },
  {
    // The caller's own review round (it gives them the cards of the days they have met).
    method: "GET",
    route: "/api/review",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/review" }),
  },
  {
    method: "GET",
    route: "/api/review/summary",
    expected: SIGNED_IN,
    request: () => ({ path: `/api/review/summary?timeZone=Asia%2FKuala_Lumpur` }),
  },
  {
    // The caller's own hardest cards of a chapter.
    method: "GET",
    route: "/api/review/hardest/:chapterId",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/review/hardest/chapter-1" }),
  },
  {
    // The caller's own review of a card of day 1, whose phrases they meet by opening its phrase cards.
    method: "POST",
    route: "/api/review/answers",
    expected: SIGNED_IN,
    request: async ({ asCaller }) => {
      await asCaller("/api/progress/chapter-1/day-1/codebook:review-vocab", {
        method: "PUT",
        json: { status: "in-progress" },
      });
      return {
        path: "/api/review/answers",
        json: {
          clientId: randomUUID(),
          cardId: servedCardId({ chapterId: "chapter-1", dayId: "day-1", phraseId: "card-pagi", skill: "recall" }),
          given: { text: "Selamat pagi" },
          durationMs: 3_000,
        },
      };
    },
  },
  {
    method: "GET",
    route: "/api/users/:userId/review",
    expected: STAFF_ON_STUDENTS,
    request: ({ targetId }) => ({ path: `/api/users/${targetId}/review` }),
  },
  {
    // Puts a phrase of day 1 into the learner's review, which only staff may do.
    method: "POST",
    route: "/api/users/:userId/review/pins",
    expected: STAFF_ON_STUDENTS,
    request: ({ targetId }) => ({
      path: `/api/users/${targetId}/review/pins`,
      json: { chapterId: "chapter-1", dayId: "day-1", phraseId: "card-pagi" },
    }),
  },
  {
    // A reminder's unsubscribe link: the signed token is the proof, whoever (if anyone) is signed in.
    method: "POST",
    route: "/api/reminders/unsubscribe",
    expected: ANYONE,
    request: async ({ targetId, unsubscribeToken }) => ({
      path: "/api/reminders/unsubscribe",
      json: { token: await unsubscribeToken(targetId) },
    }),
  },
  {
    // The same, as a mail client's one-click unsubscribe (RFC 8058): a form, no cookie needed.
    method: "POST",
    route: "/api/reminders/one-click",
    expected: ANYONE,
    request: async ({ targetId, unsubscribeToken }) => ({
      path: `/api/reminders/one-click?token=${await unsubscribeToken(targetId)}`,
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
    }),
  },
  {
    // The caller's own take of a line of day 1, open to everyone signed in.
    method: "POST",
    route: "/api/speaking/takes",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/speaking/takes", body: takeForm() }),
  },
  {
    // The target's take: its owner hears it, and staff who may act on them.
    method: "GET",
    route: "/api/speaking/takes/:takeId",
    expected: TAKE_LISTENERS,
    request: ({ targetId, takeOf }) => ({ path: `/api/speaking/takes/${takeOf(targetId)}` }),
  },
  {
    // The target's take, rated as its owner rates their own.
    method: "PUT",
    route: "/api/speaking/takes/:takeId/self-rating",
    expected: OWNER_OF_TAKE,
    request: ({ targetId, takeOf }) => ({
      path: `/api/speaking/takes/${takeOf(targetId)}/self-rating`,
      json: { rating: "good" },
    }),
  },
  {
    // The caller's own lines and takes of day 1.
    method: "GET",
    route: "/api/speaking/days/:chapterId/:dayId",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/speaking/days/chapter-1/day-1" }),
  },
  {
    method: "PUT",
    route: "/api/speaking/days/:chapterId/:dayId/lines/:lineId",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/speaking/days/chapter-1/day-1/lines/line-kopi-o", json: { listened: true } }),
  },
  {
    method: "PUT",
    route: "/api/speaking/days/:chapterId/:dayId/quiet",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/speaking/days/chapter-1/day-1/quiet", json: { quiet: true } }),
  },
  {
    // The caller's own take of day 1's "line-selamat-pagi" (each account holds one), sent to a tutor.
    method: "POST",
    route: "/api/speaking/days/:chapterId/:dayId/sent",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/speaking/days/chapter-1/day-1/sent", json: { lineIds: ["line-selamat-pagi"] } }),
  },
  {
    // What learners sent, waiting for a tutor.
    method: "GET",
    route: "/api/speaking/queue",
    expected: STAFF,
    request: () => ({ path: "/api/speaking/queue" }),
  },
  {
    // The queue's changes, pushed as they happen: an event stream, to the same staff as the queue.
    method: "GET",
    route: "/api/speaking/queue/changes",
    expected: STAFF,
    request: () => ({ path: "/api/speaking/queue/changes" }),
  },
  {
    // What the target sent: staff who may act on them hear it.
    method: "GET",
    route: "/api/speaking/submissions/:submissionId",
    expected: STAFF_ON_STUDENTS,
    request: ({ targetId, sentOf }) => ({ path: `/api/speaking/submissions/${sentOf(targetId).submissionId}` }),
  },
  {
    method: "POST",
    route: "/api/speaking/submissions/:submissionId/review",
    expected: STAFF_ON_STUDENTS,
    request: ({ targetId, sentOf }) => ({
      path: `/api/speaking/submissions/${sentOf(targetId).submissionId}/review`,
      json: { ratings: [{ takeId: sentOf(targetId).takeId, rating: 2, comment: "Again, slower." }] },
    }),
  },
  {
    // The caller's own notices.
    method: "GET",
    route: "/api/speaking/notices",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/speaking/notices" }),
  },
  {
    method: "POST",
    route: "/api/speaking/notices/read",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/speaking/notices/read" }),
  },
  {
    // The caller's own role-play done alone, its one line said aloud first as a client would.
    method: "POST",
    route: "/api/speaking/days/:chapterId/:dayId/role-plays/:taskId",
    expected: SIGNED_IN,
    request: async ({ asCaller }) => {
      await asCaller("/api/speaking/days/chapter-1/day-1/lines/phrase-apa-khabar", {
        method: "PUT",
        json: { saidAloud: true },
      });
      return { path: "/api/speaking/days/chapter-1/day-1/role-plays/live-session:greeting-practice" };
    },
  },
  {
    // The caller's own hours as a tutor.
    method: "GET",
    route: "/api/bookings/hours",
    expected: STAFF,
    request: () => ({ path: "/api/bookings/hours" }),
  },
  {
    method: "PUT",
    route: "/api/bookings/hours",
    expected: STAFF,
    request: () => ({
      path: "/api/bookings/hours",
      json: {
        timeZone: "Europe/London",
        bio: "",
        languages: ["Malay"],
        sessionMinutes: 30,
        noticeHours: 12,
        horizonDays: 28,
        weekly: [{ weekday: 1, ranges: [{ start: "09:00", end: "10:00" }] }],
        exceptions: [],
      },
    }),
  },
  {
    // The caller's own sessions this week and who waits for one.
    method: "GET",
    route: "/api/bookings/week",
    expected: STAFF,
    request: () => ({ path: "/api/bookings/week" }),
  },
  {
    method: "GET",
    route: "/api/bookings/tutors",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/bookings/tutors" }),
  },
  {
    method: "GET",
    route: "/api/bookings/days/:chapterId/:dayId/slots",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/bookings/days/chapter-1/day-1/slots" }),
  },
  {
    // A session for the caller themself, with the tutor who takes bookings.
    method: "POST",
    route: "/api/bookings/days/:chapterId/:dayId",
    expected: SIGNED_IN,
    request: ({ bookingTutor }) => ({
      path: "/api/bookings/days/chapter-1/day-1",
      json: { tutorId: bookingTutor.id, startsAt: bookingTutor.freeSlot },
    }),
  },
  {
    // The caller's own sessions.
    method: "GET",
    route: "/api/bookings/mine",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/bookings/mine" }),
  },
  {
    method: "GET",
    route: "/api/bookings/:bookingId",
    expected: BOOKING_SIDES,
    request: ({ targetId, bookingOf }) => ({ path: `/api/bookings/${bookingOf(targetId).upcoming}` }),
  },
  {
    method: "GET",
    route: "/api/calls/:bookingId",
    expected: BOOKING_SIDES,
    request: ({ targetId, bookingOf }) => ({ path: `/api/calls/${bookingOf(targetId).upcoming}` }),
  },
  {
    // Who of the two sides is in the room: read by their session cards while it is open.
    method: "GET",
    route: "/api/calls/:bookingId/presence",
    expected: BOOKING_SIDES,
    request: ({ targetId, bookingOf }) => ({ path: `/api/calls/${bookingOf(targetId).upcoming}/presence` }),
  },
  {
    // The room's WebSocket, asked without an upgrade: who may come in is told to connect with one.
    // tests/session-room.db.test.ts opens it as WebSockets.
    method: "GET",
    route: "/api/calls/:bookingId/signal",
    expected: Object.fromEntries(
      Object.entries(BOOKING_SIDES).map(([actor, outcome]) => [actor, outcome === "allow" ? "426-upgrade" : outcome]),
    ) as Record<Actor, Outcome>,
    request: ({ targetId, bookingOf }) => ({ path: `/api/calls/${bookingOf(targetId).upcoming}/signal` }),
  },
  {
    // The session that started a day ago (day 3): its record takes ratings and notes until it ends.
    method: "GET",
    route: "/api/calls/:bookingId/brief",
    expected: BOOKING_TUTOR,
    request: ({ targetId, bookingOf }) => ({ path: `/api/calls/${bookingOf(targetId).past}/brief` }),
  },
  {
    method: "PUT",
    route: "/api/calls/:bookingId/ratings",
    expected: BOOKING_TUTOR,
    request: ({ targetId, bookingOf }) => ({
      path: `/api/calls/${bookingOf(targetId).past}/ratings`,
      json: { taskId: "live-session:task-1", lineId: "phrase-puan", rating: 2 },
    }),
  },
  {
    method: "PUT",
    route: "/api/calls/:bookingId/notes",
    expected: BOOKING_TUTOR,
    request: ({ targetId, bookingOf }) => ({
      path: `/api/calls/${bookingOf(targetId).past}/notes`,
      json: { notes: "Say 'encik' to a man you do not know." },
    }),
  },
  {
    method: "POST",
    route: "/api/calls/:bookingId/end",
    expected: BOOKING_TUTOR,
    request: ({ targetId, bookingOf }) => ({ path: `/api/calls/${bookingOf(targetId).past}/end` }),
  },
  {
    // The learner rates the session held two days ago (decision 083).
    method: "PUT",
    route: "/api/calls/:bookingId/session-rating",
    expected: BOOKING_LEARNER,
    request: ({ targetId, bookingOf }) => ({
      path: `/api/calls/${bookingOf(targetId).held}/session-rating`,
      json: { stars: 4, comment: "Clear and patient." },
    }),
  },
  {
    // A tutor's own ratings by learners.
    method: "GET",
    route: "/api/calls/session-ratings/mine",
    expected: STAFF,
    request: () => ({ path: "/api/calls/session-ratings/mine" }),
  },
  {
    method: "GET",
    route: "/api/calls/session-ratings/tutors",
    expected: ADMIN,
    request: () => ({ path: "/api/calls/session-ratings/tutors" }),
  },
  {
    method: "GET",
    route: "/api/bookings/:bookingId/invite.ics",
    expected: BOOKING_SIDES,
    request: ({ targetId, bookingOf }) => ({ path: `/api/bookings/${bookingOf(targetId).upcoming}/invite.ics` }),
  },
  {
    // The open times the session may move to, for its two sides: an Admin is neither (403).
    method: "GET",
    route: "/api/bookings/:bookingId/times",
    expected: BOOKING_LEARNER,
    request: ({ targetId, bookingOf }) => ({ path: `/api/bookings/${bookingOf(targetId).upcoming}/times` }),
  },
  {
    method: "POST",
    route: "/api/bookings/:bookingId/cancel",
    expected: BOOKING_SIDES,
    request: ({ targetId, bookingOf }) => ({
      path: `/api/bookings/${bookingOf(targetId).upcoming}/cancel`,
      json: { reason: "Something came up." },
    }),
  },
  {
    // Either side asks for another time (the learner one of the tutor's open times), an Admin as the tutor.
    method: "POST",
    route: "/api/bookings/:bookingId/propose",
    expected: BOOKING_SIDES,
    request: ({ targetId, bookingOf, bookingTutor }) => ({
      path: `/api/bookings/${bookingOf(targetId).upcoming}/propose`,
      json: { startsAt: bookingTutor.freeSlot },
    }),
  },
  {
    // The target's session has a new time waiting for their answer.
    method: "POST",
    route: "/api/bookings/:bookingId/proposal",
    expected: BOOKING_LEARNER,
    request: ({ targetId, bookingOf }) => ({
      path: `/api/bookings/${bookingOf(targetId).upcoming}/proposal`,
      json: { accept: false },
    }),
  },
  {
    // The target's session that started a day ago (an Admin names who did not come).
    method: "POST",
    route: "/api/bookings/:bookingId/no-show",
    expected: BOOKING_SIDES,
    request: ({ targetId, bookingOf }) => ({
      path: `/api/bookings/${bookingOf(targetId).past}/no-show`,
      json: { party: "tutor" },
    }),
  },
  {
    method: "POST",
    route: "/api/bookings/:bookingId/messages",
    expected: BOOKING_LEARNER,
    request: ({ targetId, bookingOf }) => ({
      path: `/api/bookings/${bookingOf(targetId).upcoming}/messages`,
      json: { text: "See you soon." },
    }),
  },
  {
    method: "GET",
    route: "/api/calendar/feed",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/calendar/feed" }),
  },
  {
    // Every account holds a feed before every cell: this makes the caller's anew.
    method: "POST",
    route: "/api/calendar/feed",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/calendar/feed" }),
  },
  {
    method: "DELETE",
    route: "/api/calendar/feed",
    expected: SIGNED_IN,
    request: () => ({ path: "/api/calendar/feed" }),
  },
  {
    // The feed is public: its token is the key, and a calendar app sends no session.
    method: "GET",
    route: "/api/calendar/feed/:token",
    expected: ANYONE,
    request: ({ targetId, feedTokenOf }) => ({ path: `/api/calendar/feed/${feedTokenOf(targetId)}.ics` }),
  },
  {
    method: "GET",
    route: "/api/voices",
    expected: ADMIN,
    request: () => ({ path: "/api/voices" }),
  },
  {
    // The booking tutor is staff and no voice: an Admin may name them one.
    method: "POST",
    route: "/api/voices",
    expected: ADMIN,
    request: ({ bookingTutor, serial }) => ({
      path: "/api/voices",
      json: { userId: bookingTutor.id, creditedName: `Cikgu ${serial}`, accent: "kelantan" },
    }),
  },
  {
    method: "PATCH",
    route: "/api/voices/:userId",
    expected: ADMIN,
    request: ({ voiceId, serial }) => ({ path: voice(voiceId), json: { creditedName: `Aina ${serial}` } }),
  },
  {
    // Revoking ends the voice's standing consent too.
    method: "DELETE",
    route: "/api/voices/:userId",
    expected: ADMIN,
    request: ({ voiceId }) => ({ path: voice(voiceId) }),
  },
  {
    // Staff are told whether they are a voice (the Settings page asks); learners are refused.
    method: "GET",
    route: "/api/voices/me",
    expected: STAFF,
    request: () => ({ path: "/api/voices/me" }),
  },
  {
    method: "POST",
    route: "/api/voices/me/consent",
    expected: THE_VOICE,
    request: () => ({ path: "/api/voices/me/consent" }),
  },
  {
    method: "DELETE",
    route: "/api/voices/me/consent",
    expected: THE_VOICE,
    request: () => ({ path: "/api/voices/me/consent" }),
  },
  {
    method: "GET",
    route: "/api/studio/days",
    expected: STUDIO,
    request: () => ({ path: "/api/studio/days" }),
  },
  {
    method: "GET",
    route: "/api/studio/days/:chapterId/:dayId",
    expected: STUDIO,
    request: () => ({ path: "/api/studio/days/chapter-1/day-1" }),
  },
  {
    // Only a voice who may record: the tutor actor. An Admin reviews, but is no voice.
    method: "POST",
    route: "/api/studio/days/:chapterId/:dayId/lines/:lineId/takes",
    expected: THE_VOICE,
    request: () => ({
      path: "/api/studio/days/chapter-1/day-1/lines/line-selamat-pagi/takes?trimStartMs=0&trimEndMs=900",
      body: new Blob([new Uint8Array(studioWav())], { type: "audio/wav" }),
    }),
  },
  {
    method: "GET",
    route: "/api/studio/takes/:takeId",
    expected: STUDIO,
    request: () => ({ path: `/api/studio/takes/${STUDIO_TAKES.inReview}` }),
  },
  {
    method: "GET",
    route: "/api/studio/takes/:takeId/audio",
    expected: STUDIO,
    request: () => ({ path: `/api/studio/takes/${STUDIO_TAKES.inReview}/audio?form=master` }),
  },
  {
    method: "GET",
    route: "/api/studio/review",
    expected: STUDIO,
    request: () => ({ path: "/api/studio/review" }),
  },
  {
    // The tutor voice's own take: another voice or an Admin reviews it.
    method: "POST",
    route: "/api/studio/takes/:takeId/review",
    expected: STUDIO_BUT_THE_VOICE,
    request: () => ({ path: `/api/studio/takes/${STUDIO_TAKES.inReview}/review`, json: { decision: "approve" } }),
  },
  {
    // The tutor voice's own clip, or an Admin.
    method: "DELETE",
    route: "/api/studio/days/:chapterId/:dayId/lines/:lineId/clip",
    expected: STUDIO,
    request: () => ({ path: "/api/studio/days/chapter-1/day-1/lines/card-pagi/clip" }),
  },
  {
    method: "GET",
    route: "/api/studio/published",
    expected: ANYONE,
    request: () => ({ path: "/api/studio/published" }),
  },
  {
    method: "GET",
    route: "/api/studio/clips/:takeId",
    expected: ANYONE,
    request: () => ({ path: `/api/studio/clips/${STUDIO_TAKES.published}` }),
  },
  {
    method: "GET",
    route: "/api/studio/dialogues/:dialogueId",
    expected: ANYONE,
    request: () => ({ path: `/api/studio/dialogues/${STUDIO_TAKES.dialogue}` }),
  },
];

/** True when `path` (query string aside) is one that Hono's pattern `route` matches. */
export function pathMatchesRoute(path: string, route: string): boolean {
  const pattern = route
    .split("/")
    .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${pattern}$`).test(path.split("?")[0]!);
}
