import { existsSync } from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import { createApp } from "./app";
import { createAuth } from "./auth/auth";
import { loadCourse } from "./course/content";
import { promoteAdmins } from "./db/admins";
import { connectDatabase } from "./db/client";
import { type EmbeddedDatabase, startEmbeddedPostgres } from "./db/embedded";
import { migrateDatabase } from "./db/migrate";
import { createNotifications } from "./db/notifications";
import type { Env } from "./env";
import { createMailerFromEnv } from "./mail/mailer";
import { backfillDayCompletions } from "./modules/progress/progress.service";
import { createModules, moduleJobs, moduleWorkers } from "./modules/registry";
import { startQueue } from "./queue/queue";
import { createDatabaseStorage } from "./storage/storage";
import { createS3Storage } from "./storage/storage-s3";

/**
 * Everything the server needs, in start order: the course content, the database (embedded unless
 * DATABASE_URL is set), migrations, admin promotion, the days completed before completions were
 * recorded, the queue, the app, then the background work on the queue. `close` releases them in reverse
 * order. Broken content throws a ContentError before anything is started.
 */
export async function startServices(env: Env, logger: Logger) {
  const course = loadCourse();
  // Media in the operator's bucket when one is configured, checked before anything starts; else in PostgreSQL.
  const bucket = env.S3 ? createS3Storage(env.S3) : null;
  await bucket?.verify().catch((error: unknown) => {
    bucket.close();
    throw error;
  });
  let embedded: EmbeddedDatabase | null = null;
  if (!env.DATABASE_URL) embedded = await startEmbeddedPostgres(env.DATA_DIR, logger);
  const databaseUrl = env.DATABASE_URL ?? embedded!.url;
  try {
    await migrateDatabase(databaseUrl);
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  const database = connectDatabase(databaseUrl, logger);
  await promoteAdmins(database.db, env.ADMIN_EMAILS);
  // Days finished before they were recorded stay finished when the course adds a task (decision 030).
  const backfilled = await backfillDayCompletions(database.db, course);
  if (backfilled > 0) logger.info({ days: backfilled }, "recorded days completed before completions were kept");

  const mailer = createMailerFromEnv(env, database.db, logger);
  // Started before the modules, so that a module can be given it to send jobs.
  const queue = await startQueue({ url: databaseUrl, logger });
  const notifications = createNotifications(databaseUrl, logger);
  const auth = createAuth({ db: database.db, env, mailer, logger });
  const webRoot = path.resolve("dist/web");
  const deps = {
    db: database.db,
    pool: database.pool,
    auth,
    storage: bucket ?? createDatabaseStorage(database.db, { legacyDir: path.join(env.DATA_DIR, "uploads") }),
    mailer,
    logger,
    publicUrl: env.PUBLIC_URL,
    mailFrom: env.MAIL_FROM,
    authSecret: env.AUTH_SECRET,
    course,
    webRoot: existsSync(path.join(webRoot, "index.html")) ? webRoot : undefined,
    trustProxy: env.TRUST_PROXY,
    rateLimit: env.RATE_LIMIT,
    notifications,
    queue,
    turn: env.TURN_URL && env.TURN_SECRET ? { urls: env.TURN_URL, secret: env.TURN_SECRET } : undefined,
  };
  const modules = createModules(deps);
  const app = createApp(deps, modules);
  // The modules' background work (the review reminders, every 5 minutes) and the mailer's (its
  // delivery sweep, the outbox's pruning), each run once across all instances.
  await queue.recur([...moduleJobs(modules), ...mailer.jobs]);
  // The one-off jobs modules send (a studio take's processing), worked by every instance.
  for (const worker of moduleWorkers(modules)) await queue.work(worker.name, worker.run as never, worker.settings);

  return {
    app,
    auth,
    database,
    queue,
    /** Ends the open event streams (the tutors' queue): their browsers connect again, to another instance. */
    endStreams: () => modules.speaking.queueChanges.close(),
    async close() {
      await queue.stop();
      await modules.events.close();
      await notifications.close();
      await mailer.close();
      await database.close();
      bucket?.close();
      await embedded?.stop();
    },
  };
}
