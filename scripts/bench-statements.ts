// The SQL statements of the busiest reads and writes of sessions (decision 073), counted on the real
// app made in this process on the bench's database: every statement its pool's connections send
// (BEGIN and COMMIT included) while one request is answered. Used by bench-bookings.ts.

import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createApp } from "#server/app";
import { createAuth } from "#server/auth/auth";
import { loadCourse } from "#server/course/content";
import { connectDatabase } from "#server/db/client";
import { createNotifications } from "#server/db/notifications";
import { loadEnv } from "#server/env";
import { createLogger } from "#server/logger";
import { createMailer } from "#server/mail/mailer";
import { createModules } from "#server/modules/registry";
import { createLazyQueue } from "#server/queue/lazy-queue";
import { createDatabaseStorage } from "#server/storage/storage";
import { statementCounter } from "#tests/statement-count";

const ORIGIN = "http://localhost:3000";
/** Every day 08:00-20:00 in London, 30-minute sessions, bookable from now to four weeks on. */
const EVERY_DAY = {
  timeZone: "Europe/London",
  bio: "",
  languages: ["Malay"],
  sessionMinutes: 30,
  noticeHours: 0,
  horizonDays: 28,
  weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, ranges: [{ start: "08:00", end: "20:00" }] })),
  exceptions: [],
};

/** What one step of the count found: the people in the list, and each request's statements. */
export interface StatementCounts {
  people: number;
  tutors: number;
  learners: number;
  booking: number;
  slots: number;
  queue: number;
}

/** The app on `databaseUrl`, in process, on a pool whose statements are counted. */
async function countedApp(databaseUrl: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-bench-statements-"));
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: ORIGIN,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    LOG_LEVEL: "warn",
  });
  const logger = createLogger("warn");
  const database = connectDatabase(databaseUrl, logger, { max: 5 });
  const counter = statementCounter(database.pool);
  const mailer = createMailer({ db: database.db, from: env.MAIL_FROM, logger });
  const notifications = createNotifications(databaseUrl, logger);
  const deps = {
    db: database.db,
    pool: database.pool,
    auth: createAuth({ db: database.db, env, mailer, logger }),
    storage: createDatabaseStorage(database.db, { legacyDir: path.join(dataDir, "uploads") }),
    mailer,
    logger,
    publicUrl: ORIGIN,
    authSecret: env.AUTH_SECRET,
    course: loadCourse({ publicDir: null }),
    notifications,
    // Booking sends no job; the queue would start only if something did.
    queue: createLazyQueue({ url: databaseUrl, logger, workers: () => [] }),
  };
  const app = createApp(deps, createModules(deps));
  const send = async (pathname: string, init: { method?: string; cookie?: string; json?: unknown } = {}) => {
    const headers = new Headers({ origin: ORIGIN });
    if (init.cookie) headers.set("cookie", init.cookie);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    const body = init.json === undefined ? undefined : JSON.stringify(init.json);
    return app.request(pathname, { method: init.method ?? "GET", headers, body });
  };
  return {
    database,
    send,
    /** The statements one request sent, with its status and body. */
    async count(pathname: string, init: Parameters<typeof send>[1] = {}) {
      const { result, statements } = await counter.during(async () => {
        const response = await send(pathname, init);
        return { status: response.status, body: (await response.json()) as unknown };
      });
      if (result.status >= 300) throw new Error(`${pathname}: ${result.status} ${JSON.stringify(result.body)}`);
      return { ...result, statements: statements.length };
    },
    async close() {
      await notifications.close();
      await mailer.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

type CountedApp = Awaited<ReturnType<typeof countedApp>>;

let made = 0;
/** A new account of this role, signed in: its id and session cookie. */
async function account(app: CountedApp, role: "Student" | "Tutor") {
  made += 1;
  const details = {
    email: `bench-people-${made}-${Date.now().toString(36)}@example.com`,
    password: "teh-tarik-kurang-manis",
    firstName: `${role}${made}`,
    lastName: "Bench",
  };
  const up = await app.send("/api/auth/sign-up/email", {
    method: "POST",
    json: { ...details, name: `${details.firstName} Bench` },
  });
  if (up.status !== 200) throw new Error(`sign-up: ${up.status} ${await up.text()}`);
  const { rows } = await app.database.pool.query<{ id: string }>(
    `update "user" set role = $2 where email = $1 returning id`,
    [details.email, role],
  );
  const signIn = await app.send("/api/auth/sign-in/email", {
    method: "POST",
    json: { email: details.email, password: details.password },
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((each) => each.split(";")[0])
    .join("; ");
  return { id: rows[0]!.id, cookie };
}

/**
 * Adds tutors with hours and learners with a speaking submission waiting until each count is
 * reached, then counts the statements of the slots (every tutor's), of the tutors' speaking queue,
 * and of booking a slot, at each of `steps` people.
 */
export async function countStatements(databaseUrl: string, steps: readonly number[]): Promise<StatementCounts[]> {
  const app = await countedApp(databaseUrl);
  try {
    const reader = await account(app, "Student");
    const listener = await account(app, "Tutor");
    const tutors: string[] = [];
    const counts: StatementCounts[] = [];
    for (const step of steps) {
      while (tutors.length < step) {
        const tutor = await account(app, "Tutor");
        const saved = await app.send("/api/bookings/hours", { method: "PUT", cookie: tutor.cookie, json: EVERY_DAY });
        if (saved.status !== 200) throw new Error(`hours: ${saved.status}`);
        tutors.push(tutor.id);
        const learner = await account(app, "Student");
        await app.database.pool.query(
          `insert into speaking_submission (user_id, chapter_id, day_id) values ($1, 'chapter-1', 'day-1')`,
          [learner.id],
        );
      }
      const slots = await app.count("/api/bookings/days/chapter-1/day-1/slots", { cookie: reader.cookie });
      const queue = await app.count("/api/speaking/queue", { cookie: listener.cookie });
      const booker = await account(app, "Student");
      const open = (slots.body as { slots: { startsAt: string; tutorId: string }[] }).slots.at(-1)!;
      const booking = await app.count("/api/bookings/days/chapter-1/day-1", {
        method: "POST",
        cookie: booker.cookie,
        json: { tutorId: open.tutorId, startsAt: open.startsAt },
      });
      counts.push({
        people: step,
        tutors: (slots.body as { tutors: unknown[] }).tutors.length,
        learners: (queue.body as { waiting: unknown[] }).waiting.length,
        booking: booking.statements,
        slots: slots.statements,
        queue: queue.statements,
      });
    }
    return counts;
  } finally {
    await app.close();
  }
}
