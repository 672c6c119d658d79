import pg from "pg";
import { runningEmbeddedPostgres } from "#server/db/embedded";

/**
 * The link of the newest email to `email` in the app's outbox table, read from the embedded
 * PostgreSQL of the server under test (playwright.config.ts's DATA_DIR), as `npm run outbox` would.
 */
export async function newestLinkTo(email: string): Promise<string> {
  const url = await runningEmbeddedPostgres(process.env.E2E_DATA_DIR!);
  if (!url) throw new Error("The server under test is not running on E2E_DATA_DIR.");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ link: string | null }>(
      "select link from mail_outbox where recipient = $1 order by created_at desc limit 1",
      [email],
    );
    const link = rows[0]?.link;
    if (!link) throw new Error(`No email with a link to ${email} in the outbox.`);
    return link;
  } finally {
    await client.end();
  }
}

/**
 * The calendar invites of the emails to `email` in the outbox, oldest first: each its method and
 * iCalendar text, once there are at least `atLeast` (a change's mail is written by its event's
 * handler just after the change: waited for up to 10 s).
 */
export async function calendarInvitesTo(
  email: string,
  atLeast: number,
): Promise<{ subject: string; method: string; content: string }[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const invites = await readInvitesTo(email);
    if (invites.length >= atLeast || Date.now() > deadline) return invites;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function readInvitesTo(email: string): Promise<{ subject: string; method: string; content: string }[]> {
  const url = await runningEmbeddedPostgres(process.env.E2E_DATA_DIR!);
  if (!url) throw new Error("The server under test is not running on E2E_DATA_DIR.");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ subject: string; calendar: { method: string; content: string } }>(
      "select subject, calendar from mail_outbox where recipient = $1 and calendar is not null order by created_at, id",
      [email],
    );
    return rows.map((row) => ({ subject: row.subject, ...row.calendar }));
  } finally {
    await client.end();
  }
}
