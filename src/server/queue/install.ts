import PgBoss from "pg-boss";

/** The schema pg-boss keeps its queues, jobs and schedules in, beside the app's tables. */
export const QUEUE_SCHEMA = "pgboss";

/**
 * Creates the queue's tables (PostgreSQL schema `pgboss`), or brings them up to this pg-boss's
 * version, with the app's migrations (db/migrate.ts). pg-boss takes an advisory lock of its own, so
 * instances starting together take turns; a database copied from a migrated one (the tests'
 * template) has them already.
 */
export async function installQueueSchema(url: string): Promise<void> {
  const boss = new PgBoss({
    connectionString: url,
    schema: QUEUE_SCHEMA,
    max: 1,
    application_name: "jalan-queue-install",
    supervise: false,
    schedule: false,
  });
  await boss.start();
  await boss.stop({ graceful: false });
}
