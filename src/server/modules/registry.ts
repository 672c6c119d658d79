import type { Hono } from "hono";
import type pg from "pg";
import type { Logger } from "pino";
import type { Chapter } from "#course/course";
import type { Auth } from "#server/auth/auth";
import type { Database } from "#server/db/client";
import type { Notifications } from "#server/db/notifications";
import type { Emitter } from "#server/events/events";
import { createEventOutbox } from "#server/events/outbox";
import { limitBody } from "#server/http/body-limit";
import type { AppEnv } from "#server/http/context";
import { createRequestLimiter, type RequestLimiter } from "#server/http/request-limit";
import { UPLOAD_DEADLINE_MS, uploadDeadline } from "#server/http/upload";
import type { Mailer } from "#server/mail/mailer";
import type { FileStorage } from "#server/storage/storage";
import { accountModule } from "./account/account.module";
import { adminModule } from "./admin/admin.module";
import { answersModule } from "./answers/answers.module";
import { bookingsModule } from "./bookings/bookings.module";
import { calendarModule } from "./calendar/calendar.module";
import { callsModule } from "./calls/calls.module";
import type { RoomLimits } from "./calls/calls.repository";
import { contactModule } from "./contact/contact.module";
import { feedbackModule } from "./feedback/feedback.module";
import { learnersModule } from "./learners/learners.module";
import type { AnyModuleFace, Job, Worker } from "./module";
import { profileModule } from "./profile/profile.module";
import { progressModule } from "./progress/progress.module";
import { remindersModule } from "./reminders/reminders.module";
import { reviewModule } from "./review/review.module";
import type { ReviewService } from "./review/review.service";
import { settingsModule } from "./settings/settings.module";
import { speakingModule, type TakeReader } from "./speaking/speaking.module";
import type { JobSender } from "./studio/studio.deps";
import { studioModule } from "./studio/studio.module";
import { espeakDurations } from "./studio/studio.reference";
import { usersModule } from "./users/users.module";
import { voicesModule } from "./voices/voices.module";

/** The sender named in calendar invites when MAIL_FROM is not given (tests). */
const DEFAULT_MAIL_FROM = "Jalan <no-reply@jalan.local>";

/** Where the registry mounts the modules; the web's typed client calls the same prefix. */
export const API_PREFIX = "/api";

export interface ModuleDeps {
  db: Database;
  pool: pg.Pool;
  auth: Auth;
  storage: FileStorage;
  mailer: Mailer;
  logger: Logger;
  publicUrl: string;
  /** MAIL_FROM: the organizer of the calendar invites sessions' emails carry. */
  mailFrom?: string;
  /** AUTH_SECRET: signs unsubscribe tokens and keys the hashes of client addresses (contact form). */
  authSecret: string;
  /** This instance's LISTEN/NOTIFY connection (db/notifications.ts): the session rooms' relay. */
  notifications: Notifications;
  /** TURN_URL and TURN_SECRET: the operator's TURN server for calls, when there is one. */
  turn?: { urls: readonly string[]; secret: string };
  /** The queue (src/server/queue/queue.ts), for the jobs modules send: a studio take's processing. */
  queue: JobSender;
  /** The course, loaded and validated once at start (src/server/course/content.ts). */
  course: Chapter[];
  /** RATE_LIMIT: Jalan's own limits on password checks (src/server/http/request-limit.ts). Default off. */
  rateLimit?: boolean;
  /** Review of what learners met; made from db and course when absent (tests pass one on a fake clock). */
  review?: ReviewService;
  /**
   * The clock review, settings (the day a goal changed) and reminders (the scan, an unsubscribe
   * link's expiry) go by; the real one when absent (tests move it).
   */
  now?: () => Date;
  /** How often open session-room sockets are checked again (calls.access.ts); tests make it short. */
  roomAccessCheckMs?: number;
  /** What one user may send into one session room (calls.repository.ts); tests make them small. */
  roomLimits?: RoomLimits;
  /** Reads takes off the event loop (speaking/take-reader.ts); the process's own unless a test gives one. */
  takeReader?: TakeReader;
  /** The pause before an event's handler is tried again (events/outbox.ts backoffMs); tests make it 0. */
  eventRetryDelayMs?: (attempts: number) => number;
  /** How often an open stream of the tutors' queue sends a comment (speaking.queue-changes.ts); tests make it short. */
  speakingQueueHeartbeatMs?: number;
}

/**
 * Every module, made in the order their services need each other: a module receives the services
 * of the modules it calls, never their repositories or tables. The account receives the modules'
 * parts of it (their faces' `account`), and the instance's event outbox what each face emits and
 * handles; `events` is that outbox (its dispatcher, woken by this instance's LISTEN connection).
 */
export function createModules(deps: ModuleDeps) {
  const { db, mailer, logger, publicUrl } = deps;
  const events = createEventOutbox({ db, logger, retryDelayMs: deps.eventRetryDelayMs });
  const secret = deps.authSecret;
  const limiter = createRequestLimiter(db, { secret, enabled: deps.rateLimit ?? false });
  const learning = learningModules(deps, limiter);
  const { progress, profile, settings, answers, review, users } = learning;
  const { speaking, feedback } = practiceModules(deps, learning, limiter, events);
  const contact = contactModule({ db, mailer, secret, publicUrl, users: users.service, events });
  const { bookings, calls } = sessionModules(deps, learning, { speaking, feedback }, { limiter, events });
  const reminders = remindersModule({
    db,
    settings: settings.service,
    review: review.service,
    mailer,
    publicUrl,
    secret,
    logger,
    now: deps.now,
  });
  const calendar = calendarModule({ db, bookings: bookings.service, publicUrl, limiter, now: deps.now });
  const admin = adminModule({ contact: contact.service });
  const learners = learnersModule({ progress: progress.service, review: review.service });
  const voices = voicesModule({ db, users: users.service, events });
  const studio = studioModule({
    db,
    course: deps.course,
    storage: deps.storage,
    voices: voices.service,
    users: users.service,
    jobs: deps.queue,
    events,
    logger,
    referenceMs: espeakDurations(),
  });
  // The account is made last: it receives every other face's part of an account, in this order.
  const others = [
    profile,
    settings,
    progress,
    answers,
    review,
    speaking,
    bookings,
    calls,
    calendar,
    reminders,
    users,
    learners,
    feedback,
    contact,
    admin,
    voices,
    studio,
  ];
  const parts = others.flatMap((face) => (face.account ? [face.account] : []));
  const account = accountModule({ db, auth: deps.auth, limiter, mailer, parts });
  const modules = {
    profile,
    settings,
    account,
    progress,
    answers,
    review,
    speaking,
    bookings,
    calls,
    calendar,
    reminders,
    users,
    learners,
    feedback,
    contact,
    admin,
    voices,
    studio,
  };
  events.register(Object.values(modules));
  events.listen(deps.notifications).catch((error: unknown) => logger.error({ err: error }, "events cannot wake up"));
  return { ...modules, events };
}

/** The learner's own modules, in this order: progress, profile, settings, answers, review, users. */
function learningModules(deps: ModuleDeps, limiter: RequestLimiter) {
  const { db, course, storage } = deps;
  const progress = progressModule({ db, course });
  const profile = profileModule({ db, storage });
  const settings = settingsModule({ db, now: deps.now });
  const answers = answersModule({ db, course, progress: progress.service, limiter });
  const review = reviewModule({
    db,
    course,
    settings: settings.service,
    progress: progress.service,
    answers: answers.service,
    limiter,
    now: deps.now,
    service: deps.review,
  });
  const users = usersModule({ db });
  return { progress, profile, settings, answers, review, users };
}

type LearningModules = ReturnType<typeof learningModules>;

/** Speaking practice and the tutors' feedback, made from the learner's modules. */
function practiceModules(deps: ModuleDeps, learning: LearningModules, limiter: RequestLimiter, events: Emitter) {
  const { db, course, storage, mailer, publicUrl, logger } = deps;
  const { progress, review, users, settings } = learning;
  const speaking = speakingModule({
    db,
    course,
    storage,
    mailer,
    publicUrl,
    limiter,
    now: deps.now,
    progress: progress.service,
    review: review.service,
    users: users.service,
    settings: settings.service,
    takeReader: deps.takeReader,
    logger,
    events,
    notifications: deps.notifications,
    queueHeartbeatMs: deps.speakingQueueHeartbeatMs,
  });
  const feedback = feedbackModule({
    db,
    course,
    review: review.service,
    users: users.service,
  });
  return { speaking, feedback };
}

type PracticeModules = ReturnType<typeof practiceModules>;

/** Bookings, then the calls of the sessions booked: each calls the other's service. */
function sessionModules(
  deps: ModuleDeps,
  learning: LearningModules,
  practice: PracticeModules,
  { limiter, events }: { limiter: RequestLimiter; events: Emitter },
) {
  const { db, course, mailer, logger, publicUrl } = deps;
  const { progress, answers, review, users } = learning;
  const bookings = bookingsModule({
    db,
    course,
    mailer,
    publicUrl,
    mailFrom: deps.mailFrom ?? DEFAULT_MAIL_FROM,
    logger,
    now: deps.now,
    progress: progress.service,
    users: users.service,
    limiter,
    events,
    // The calls module is made next, with this one's service: it answers only once requests come.
    sessionEnded: (bookingId, q) => calls.service.sessionEnded(bookingId, q),
    held: {
      of: (sessions) => calls.service.held.heldOf(sessions),
      daysHeldBy: (learnerIds) => calls.service.held.daysHeldBy(learnerIds),
      countsOf: (tutorIds) => calls.service.held.heldCounts(tutorIds),
    },
  });
  const calls = callsModule({
    db,
    course,
    notifications: deps.notifications,
    logger,
    bookings: bookings.service,
    users: users.service,
    turn: deps.turn,
    now: deps.now,
    roomAccessCheckMs: deps.roomAccessCheckMs,
    roomLimits: deps.roomLimits,
    progress: progress.service,
    review: review.service,
    answers: answers.service,
    speaking: practice.speaking.service,
    feedback: practice.feedback.service,
    events,
  });
  return { bookings, calls };
}

export type Modules = ReturnType<typeof createModules>;

export function moduleFaces(modules: Modules): AnyModuleFace[] {
  const { events: _, ...faces } = modules;
  return Object.values(faces);
}

/** Every face's jobs, and the sweep that delivers the events a wake-up missed. */
export function moduleJobs(modules: Modules): Job[] {
  return [...moduleFaces(modules).flatMap((face) => face.jobs ?? []), modules.events.job];
}

/** The handlers of the modules' one-off jobs, which every instance works (services.ts). */
export function moduleWorkers(modules: Modules): Worker[] {
  return moduleFaces(modules).flatMap((face) => face.workers ?? []);
}

/** Every API route the modules serve, as `app.routes` lists them (the authorization table's rows). */
export function moduleRoutes(modules: Modules): Array<{ method: string; path: string }> {
  return moduleFaces(modules).flatMap((face) =>
    face.routes.routes
      .filter((route) => route.method !== "ALL")
      .map((route) => ({ method: route.method, path: joinPath(API_PREFIX + face.path, route.path) })),
  );
}

function joinPath(base: string, path: string): string {
  return path === "/" ? base : base + path;
}

/** A route as a face names it (`/days/:dayId/takes`) as a pattern of the paths it answers. */
function routePattern(route: string): RegExp {
  const escaped = route.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/:[A-Za-z]+/g, "[^/]+");
  return new RegExp(`^${escaped}$`);
}

/**
 * Mounts every module on the API app (which already has the session middleware): first each
 * module's body limit (an upload, which sets its own, gets the uploads' deadline instead), then its
 * routes. The chain keeps each route's types for the web's client (ApiRoutes, src/web/lib/api-client.ts).
 */
export function mountModules(api: Hono<AppEnv>, modules: Modules, uploadDeadlineMs = UPLOAD_DEADLINE_MS) {
  const deadline = uploadDeadline(uploadDeadlineMs);
  const limited = new Map<string, AnyModuleFace>();
  for (const face of moduleFaces(modules)) {
    // Faces sharing a path (users and learners, /users) share its limit, set once.
    const other = limited.get(face.path);
    if (other) {
      if (other.bodyLimit !== face.bodyLimit || face.ownBodyLimit || other.ownBodyLimit) {
        throw new Error(`The ${other.name} and ${face.name} modules share ${face.path} with different body limits.`);
      }
      continue;
    }
    limited.set(face.path, face);
    const limit = limitBody(face.bodyLimit);
    const own = (face.ownBodyLimit ?? []).map((route) => routePattern(API_PREFIX + face.path + route));
    api.use(`${face.path}/*`, (c, next) =>
      own.some((pattern) => pattern.test(c.req.path)) ? deadline(c, next) : limit(c, next),
    );
  }
  const {
    profile,
    settings,
    account,
    progress,
    answers,
    review,
    speaking,
    bookings,
    calls,
    calendar,
    reminders,
    users,
    learners,
    feedback,
    contact,
    admin,
    voices,
    studio,
  } = modules;
  return api
    .route(profile.path, profile.routes)
    .route(settings.path, settings.routes)
    .route(account.path, account.routes)
    .route(progress.path, progress.routes)
    .route(answers.path, answers.routes)
    .route(review.path, review.routes)
    .route(speaking.path, speaking.routes)
    .route(bookings.path, bookings.routes)
    .route(calls.path, calls.routes)
    .route(calendar.path, calendar.routes)
    .route(reminders.path, reminders.routes)
    .route(users.path, users.routes)
    .route(learners.path, learners.routes)
    .route(feedback.path, feedback.routes)
    .route(contact.path, contact.routes)
    .route(admin.path, admin.routes)
    .route(voices.path, voices.routes)
    .route(studio.path, studio.routes);
}

/** The API's routes with their request and response types: the web's typed client is made from this type. */
export type ApiRoutes = ReturnType<typeof mountModules>;
