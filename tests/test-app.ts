import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { asc } from "drizzle-orm";
import { afterAll } from "vitest";
import type { Chapter } from "#course/course";
import { type AppDeps, createApp } from "#server/app";
import { createAuth } from "#server/auth/auth";
import { loadCourse } from "#server/course/content";
import { connectDatabase } from "#server/db/client";
import { createNotifications } from "#server/db/notifications";
import { mailOutbox } from "#server/db/schema";
import { loadEnv } from "#server/env";
import { createLogger } from "#server/logger";
import { createMailer } from "#server/mail/mailer";
import { createModules, moduleWorkers } from "#server/modules/registry";
import { createLazyQueue } from "#server/queue/lazy-queue";
import { createDatabaseStorage } from "#server/storage/storage";
import { createS3Storage } from "#server/storage/storage-s3";
import { rememberedPasswords } from "./remembered-passwords";

export const ORIGIN = "http://localhost:3000";

export interface TestUser {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

let counter = 0;
export function newUser(overrides: Partial<TestUser> = {}): TestUser {
  counter += 1;
  return {
    email: `learner${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    password: "kopi-o-kosong",
    firstName: "Alex",
    lastName: "Tan",
    ...overrides,
  };
}

/**
 * The real app, in process, on this test file's own database (tests/setup-db.ts). Logs are kept in
 * memory so a test can read what was logged.
 */
export async function createTestApp(
  envOverrides: Record<string, string> = {},
  /** `course`: the course the app holds (a fixture, tests/fixtures/course.ts); the content files by default. */
  options: { webRoot?: string; course?: Chapter[] } = {},
) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "jalan-test-data-"));
  const env = loadEnv({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    PUBLIC_URL: ORIGIN,
    DATABASE_URL: process.env.TEST_DATABASE_URL,
    // Required with DATABASE_URL; each app gets its own, as each instance once generated one.
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    LOG_LEVEL: "info",
    ...envOverrides,
  });
  const logLines: string[] = [];
  const logger = createLogger(
    env.LOG_LEVEL,
    new Writable({
      write(chunk, _encoding, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
  );
  const database = connectDatabase(env.DATABASE_URL!, logger, { max: 5 });
  const mailer = createMailer({ db: database.db, from: env.MAIL_FROM, logger });
  const notifications = createNotifications(env.DATABASE_URL!, logger);
  const auth = createAuth({ db: database.db, env, mailer, logger, password: rememberedPasswords() });
  // Where avatars were kept before they moved into PostgreSQL; the storage moves them in from here.
  const uploadsDir = path.join(dataDir, "uploads");
  // The course as the server loads it, without the media check: tests need no generated audio.
  const course = options.course ?? loadCourse({ publicDir: null });
  // The queue starts when a module first sends a job (a studio take), and works this app's workers.
  const queue = createLazyQueue({
    url: env.DATABASE_URL!,
    logger,
    workers: () => moduleWorkers(modules),
    pollingIntervalSeconds: 0.5,
  });
  const deps: AppDeps = {
    db: database.db,
    pool: database.pool,
    auth,
    // S3_URL in envOverrides: media in that bucket (tests/s3-server.ts), as services.ts chooses.
    storage: env.S3 ? createS3Storage(env.S3) : createDatabaseStorage(database.db, { legacyDir: uploadsDir }),
    mailer,
    logger,
    publicUrl: env.PUBLIC_URL,
    authSecret: env.AUTH_SECRET,
    course,
    webRoot: options.webRoot,
    rateLimit: env.RATE_LIMIT,
    notifications,
    queue,
  };
  const modules = createModules(deps);
  const app = createApp(deps, modules);
  /** Another app on the same database and logs, as a second instance would be, with some deps changed. */
  const appWith = (changes: Partial<AppDeps>) => createApp({ ...deps, ...changes });

  afterAll(async () => {
    await queue.stop();
    await modules.events.close();
    await notifications.close();
    await mailer.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /**
   * `clientIp` stands in for the connection's address, which in-process requests do not have:
   * Hono hands the third argument of app.request to the app as c.env, where clientIp(c) reads it.
   */
  /** `request`, sent to another app made with `appWith` (a second instance, or one on a fake clock). */
  const requestTo =
    (target: Pick<typeof app, "request">) =>
    (pathname: string, init: RequestInit & { cookie?: string; json?: unknown; clientIp?: string } = {}) =>
      send(target, pathname, init);

  function request(pathname: string, init: RequestInit & { cookie?: string; json?: unknown; clientIp?: string } = {}) {
    return send(app, pathname, init);
  }

  function send(
    target: Pick<typeof app, "request">,
    pathname: string,
    { clientIp, ...init }: RequestInit & { cookie?: string; json?: unknown; clientIp?: string },
  ) {
    const headers = new Headers(init.headers);
    if (init.cookie) headers.set("cookie", init.cookie);
    if (init.method && init.method !== "GET" && !headers.has("origin")) headers.set("origin", ORIGIN);
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const connection = clientIp ? { incoming: { socket: { remoteAddress: clientIp } } } : undefined;
    return target.request(pathname, { ...init, headers, body }, connection);
  }

  async function signUp(user: TestUser = newUser()) {
    const response = await request("/api/auth/sign-up/email", {
      method: "POST",
      json: { ...user, name: `${user.firstName} ${user.lastName}` },
    });
    if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
    return user;
  }

  async function signIn(user: Pick<TestUser, "email" | "password">): Promise<string> {
    const response = await request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: user.email, password: user.password },
    });
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
    return cookieFrom(response);
  }

  /** A new account, signed in: its details and its session cookie. */
  async function signedInUser(overrides: Partial<TestUser> = {}) {
    const user = await signUp(newUser(overrides));
    return { user, cookie: await signIn(user) };
  }

  /**
   * Delivers the events waiting until none is: this app's dispatcher delivers what it can claim, and
   * what another app of this file (appWith) claimed first is waited for, at most 10 s (a handler that
   * keeps failing waits out its pause).
   */
  async function settleEvents(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      await modules.events.deliverAll();
      if ((await modules.events.stats()).waiting === 0 || Date.now() > deadline) return;
      await sleep(20);
    }
  }

  /**
   * The messages in the outbox table, oldest first (this test file's database: every app it made), once
   * the events waiting were handled: mail about a change is written by its event's handler.
   */
  async function outbox(): Promise<
    Array<{ to: string; subject: string; text: string; link?: string; calendar?: { method: string; content: string } }>
  > {
    await settleEvents();
    const rows = await database.db.select().from(mailOutbox).orderBy(asc(mailOutbox.createdAt));
    return rows.map((row) => ({
      to: row.recipient,
      subject: row.subject,
      text: row.body,
      link: row.link ?? undefined,
      calendar: row.calendar ?? undefined,
    }));
  }

  return {
    app,
    /** The app's modules (src/server/modules/registry.ts), as it mounted them. */
    modules,
    appWith,
    auth,
    logger,
    mailer,
    env,
    course,
    db: database.db,
    pool: database.pool,
    request,
    requestTo,
    signUp,
    signIn,
    signedInUser,
    outbox,
    settleEvents,
    notifications,
    logLines,
    uploadsDir,
    dataDir,
  };
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

export function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * Cookies kept across responses the way a browser keeps them: set, replaced, and dropped when a
 * response expires them. `header` is what the next request sends.
 */
export function cookieJar(initial = "") {
  const cookies = new Map<string, string>();
  for (const pair of initial.split(";")) {
    const at = pair.indexOf("=");
    if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1));
  }
  return {
    store(response: Response): Response {
      for (const header of response.headers.getSetCookie()) {
        const [pair = "", ...attributes] = header.split(";");
        const at = pair.indexOf("=");
        const name = pair.slice(0, at).trim();
        const value = pair.slice(at + 1);
        const expired = value === "" || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
        if (expired) cookies.delete(name);
        else cookies.set(name, value);
      }
      return response;
    },
    get header(): string {
      return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    },
    names(): string[] {
      return [...cookies.keys()];
    },
  };
}
