import { createHmac } from "node:crypto";
import { lt, sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import type { Database } from "#server/db/client";
import { requestLimit } from "#server/db/schema";
import type { AppEnv } from "./context";
import { HttpError } from "./errors";

/** At most `max` counted attempts in a fixed window of `windowSeconds`. */
export interface LimitRule {
  windowSeconds: number;
  max: number;
}

export type LimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Jalan's own limits, beside Better Auth's per-address ones (docs/decisions/026): failed sign-ins
 * per account, password checks per user and per address. Their counts live in PostgreSQL
 * (`request_limit`), so every instance sees the same count and a restart forgets nothing.
 */
export const LIMITS = {
  /** Wrong passwords for one account, from anywhere; past it even the right one waits. */
  failedSignInsPerAccount: { windowSeconds: 15 * 60, max: 10 },
  /** Routes that check the password again (account deletion, confirming the password). */
  passwordChecksPerUser: { windowSeconds: 15 * 60, max: 5 },
  passwordChecksPerAddress: { windowSeconds: 15 * 60, max: 20 },
  /**
   * Review answers and practice answers one learner sends: a card or an item takes a few seconds at
   * the quickest, so a minute holds far fewer than this; a script sending thousands is held back.
   */
  answersPerUser: { windowSeconds: 60, max: 60 },
  /** Takes one learner uploads: a line takes a few seconds to hear and say, so a minute holds far fewer. */
  takesPerUser: { windowSeconds: 60, max: 30 },
  /**
   * Exports of one user's data: each reads everything they have (their takes' audio too), so a few
   * an hour is plenty for a person and holds back a script asking for them over and over.
   */
  exportsPerUser: { windowSeconds: 60 * 60, max: 6 },
  /**
   * Reads of one calendar feed's link: a calendar app polls every few minutes at the most often,
   * so an hour holds far fewer; a link passed around or polled by a script is held back.
   */
  calendarFeedReadsPerLink: { windowSeconds: 60 * 60, max: 60 },
} as const satisfies Record<string, LimitRule>;

/** Rows whose window ended this long ago are pruned now and then. */
const PRUNE_AFTER_SECONDS = 24 * 60 * 60;

export function tooManyRequests(retryAfterSeconds: number, message?: string): HttpError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  // A day's window is waited out in hours: "1440 minutes" reads as a puzzle.
  const after = minutes > 90 ? `${Math.ceil(minutes / 60)} hours` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  const wait = `Please try again in ${after}.`;
  return new HttpError(429, "TOO_MANY_REQUESTS", message ? `${message} ${wait}` : `Too many attempts. ${wait}`);
}

/**
 * Keys are HMACs of what they count (an email, a user id, an address), keyed by AUTH_SECRET: the
 * table never holds an address, yet every instance with the same secret computes the same key.
 * With `enabled` false (RATE_LIMIT off: tests and development) nothing is counted or refused.
 */
export function createRequestLimiter(db: Database, options: { secret: string; enabled: boolean }) {
  const keyOf = (kind: string, subject: string) =>
    `${kind}:${createHmac("sha256", options.secret).update(`${kind}:${subject}`).digest("base64url")}`;

  async function prune() {
    await db
      .delete(requestLimit)
      .where(lt(requestLimit.windowStartedAt, sql`now() - make_interval(secs => ${PRUNE_AFTER_SECONDS})`));
  }

  return {
    /** Counts one attempt for `subject` under `kind` and says whether it stays within `rule`. */
    async hit(kind: string, subject: string, rule: LimitRule): Promise<LimitResult> {
      if (!options.enabled) return { allowed: true };
      const window = sql`make_interval(secs => ${rule.windowSeconds})`;
      // One statement: a new window starts once the old one is over, else the count goes up. Two
      // instances counting at once serialise on the row, so none of their attempts is lost.
      const result = await db.execute<{ count: number; retry_after: number }>(sql`
        insert into request_limit as limit_row (key, window_started_at, count)
        values (${keyOf(kind, subject)}, now(), 1)
        on conflict (key) do update set
          window_started_at = case when limit_row.window_started_at <= now() - ${window}
            then now() else limit_row.window_started_at end,
          count = case when limit_row.window_started_at <= now() - ${window}
            then 1 else limit_row.count + 1 end
        returning count, ceil(extract(epoch from (window_started_at + ${window} - now())))::int as retry_after`);
      const row = result.rows[0]!;
      if (Math.random() < 0.01) void prune().catch(() => undefined);
      return row.count <= rule.max ? { allowed: true } : { allowed: false, retryAfterSeconds: row.retry_after };
    },

    /** Whether `subject` is already past `rule`, without counting an attempt. */
    async check(kind: string, subject: string, rule: LimitRule): Promise<LimitResult> {
      if (!options.enabled) return { allowed: true };
      const result = await db.execute<{ count: number; retry_after: number }>(sql`
        select count, ceil(extract(epoch from (window_started_at + make_interval(secs => ${rule.windowSeconds}) - now())))::int as retry_after
        from request_limit
        where key = ${keyOf(kind, subject)}
          and window_started_at > now() - make_interval(secs => ${rule.windowSeconds})`);
      const row = result.rows[0];
      return !row || row.count < rule.max ? { allowed: true } : { allowed: false, retryAfterSeconds: row.retry_after };
    },

    /** Forgets the count of `subject` (a sign-in that succeeded clears its failures). */
    async reset(kind: string, subject: string): Promise<void> {
      if (!options.enabled) return;
      await db.execute(sql`delete from request_limit where key = ${keyOf(kind, subject)}`);
    },
  };
}

export type RequestLimiter = ReturnType<typeof createRequestLimiter>;

/**
 * A route's limit per signed-in user (after `signedIn`): each request counts one attempt of `kind`;
 * past `rule` it is refused with 429, a Retry-After header and `message`, before anything is read
 * or written.
 */
export function limitPerUser(limiter: RequestLimiter, kind: string, rule: LimitRule, message: string) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.get("user");
    if (user) {
      const verdict = await limiter.hit(kind, user.id, rule);
      if (!verdict.allowed) {
        c.header("retry-after", String(verdict.retryAfterSeconds));
        throw tooManyRequests(verdict.retryAfterSeconds, message);
      }
    }
    await next();
  });
}

/** What a learner sending answers faster than LIMITS.answersPerUser is told. */
export const TOO_MANY_ANSWERS = "Too many answers in a minute.";

/** Review answers and practice answers count against one limit per learner (LIMITS.answersPerUser). */
export const limitAnswers = (limiter: RequestLimiter) =>
  limitPerUser(limiter, "answers-per-user", LIMITS.answersPerUser, TOO_MANY_ANSWERS);

/** What a learner uploading takes faster than LIMITS.takesPerUser is told. */
export const TOO_MANY_TAKES = "Too many recordings in a minute. Please wait a moment and try again.";

/** Uploads of takes count against one limit per learner (LIMITS.takesPerUser). */
export const limitTakes = (limiter: RequestLimiter) =>
  limitPerUser(limiter, "takes-per-user", LIMITS.takesPerUser, TOO_MANY_TAKES);
