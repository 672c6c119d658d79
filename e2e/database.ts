import pg from "pg";
import { runningEmbeddedPostgres } from "#server/db/embedded";

/** Runs `work` in a transaction on the embedded PostgreSQL of the server under test (E2E_DATA_DIR). */
async function inTransaction(work: (client: pg.Client) => Promise<void>): Promise<void> {
  const url = await runningEmbeddedPostgres(process.env.E2E_DATA_DIR!);
  if (!url) throw new Error("The server under test is not running on E2E_DATA_DIR.");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    await work(client);
    await client.query("commit");
  } catch (error) {
    await client.query("rollback");
    throw error;
  } finally {
    await client.end();
  }
}

/** Gives an account a role, as `npm run user -- role` does; it applies from the account's next request. */
export async function setRole(email: string, role: "Student" | "Tutor" | "Admin"): Promise<void> {
  await inTransaction(async (client) => {
    const updated = await client.query(`update "user" set role = $2 where email = $1`, [email, role]);
    if (updated.rowCount !== 1) throw new Error(`No account ${email}.`);
  });
}

/**
 * Moves one learner's clock forward by `ms`: every time the server stored for them (progress,
 * answers, completed days, review cards and log, goal changes) moves back by as much, which to the
 * server is the same as that much time having passed. Reads the embedded PostgreSQL of the server under test
 * (playwright.config.ts's DATA_DIR), as e2e/outbox.ts does. Nothing else of the server changes.
 */
export async function moveLearnerClock(email: string, ms: number): Promise<void> {
  const by = `${ms} milliseconds`;
  await inTransaction(async (client) => {
    const { rows } = await client.query<{ id: string }>(`select id from "user" where email = $1`, [email]);
    const userId = rows[0]?.id;
    if (!userId) throw new Error(`No account ${email}.`);
    const shift = async (table: string, columns: string[]) => {
      const set = columns.map((column) => `${column} = ${column} - $2::interval`).join(", ");
      await client.query(`update ${table} set ${set} where user_id = $1`, [userId, by]);
    };
    await shift("task_progress", ["updated_at", "learner_at"]);
    await shift("answer", ["answered_at"]);
    await shift("day_completion", ["completed_at"]);
    await shift("review_card", ["met_at", "due", "last_reviewed_at", "pinned_at"]);
    await shift("review_log", ["reviewed_at"]);
    await client.query(
      `update review_log set local_date = to_char(reviewed_at at time zone time_zone, 'YYYY-MM-DD') where user_id = $1`,
      [userId],
    );
    // A goal change is dated where the learner was; their zone now stands in for it.
    await shift("daily_goal_change", ["changed_at"]);
    await client.query(
      `update daily_goal_change set local_date = to_char(changed_at at time zone (select time_zone from "user" where id = $1), 'YYYY-MM-DD') where user_id = $1`,
      [userId],
    );
  });
}

/**
 * Moves the sign-in of the account's sessions an hour back: they are no longer fresh (decision 025).
 */
export async function signedInAnHourAgo(email: string): Promise<void> {
  await inTransaction(async (client) => {
    await client.query(
      `update session set created_at = now() - interval '1 hour' where user_id = (select id from "user" where email = $1)`,
      [email],
    );
  });
}

/**
 * A confirmed session of day 1 between two accounts starting `inMs` from now, written as the
 * booking module writes one (the booking page asks for the tutor's notice, hours away): its room is
 * open from 5 minutes before.
 */
export async function bookSessionSoon(learnerEmail: string, tutorEmail: string, inMs = 60_000): Promise<string> {
  let id = "";
  await inTransaction(async (client) => {
    const { rows } = await client.query<{ id: string }>(
      `insert into booking (invite_uid, tutor_id, learner_id, chapter_id, day_id, starts_at, ends_at, status, confirmed_at)
       select gen_random_uuid(), tutor.id, learner.id, 'chapter-1', 'day-1',
         now() + $3::interval, now() + $3::interval + interval '30 minutes', 'confirmed', now()
       from "user" tutor, "user" learner where tutor.email = $2 and learner.email = $1
       returning id`,
      [learnerEmail, tutorEmail, `${inMs} milliseconds`],
    );
    if (!rows[0]) throw new Error(`No accounts ${learnerEmail} and ${tutorEmail}.`);
    id = rows[0].id;
  });
  return id;
}

/**
 * Makes one review card of the learner's the only one due: the one of `phraseId` in `skill` due now,
 * every other a month on (kept, so the review's sync of cards met adds none back).
 */
export async function onlyReviewCardDue(email: string, phraseId: string, skill: string): Promise<void> {
  await inTransaction(async (client) => {
    const { rows } = await client.query(`select id from "user" where email = $1`, [email]);
    if (rows.length !== 1) throw new Error(`No account ${email}.`);
    const updated = await client.query(
      `update review_card set due = case when phrase_id = $2 and skill = $3 then now() - interval '1 minute'
         else now() + interval '30 days' end
       where user_id = $1 returning phrase_id = $2 and skill = $3 as chosen`,
      [rows[0].id, phraseId, skill],
    );
    if (updated.rows.filter((row) => row.chosen).length !== 1) {
      throw new Error(`${email} holds no ${skill} card of ${phraseId}.`);
    }
  });
}
