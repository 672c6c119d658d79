import { readdir } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import type { TestApp } from "#tests/test-app";
import { type Body, wire } from "./arbitraries";

/** A new account of this role, signed in: its id, its details and its session cookie. */
export async function signedInAs(t: TestApp, role: "Student" | "Tutor" | "Admin" = "Student") {
  const { user, cookie } = await t.signedInUser();
  const { rows } = await t.pool.query<{ id: string }>(`update "user" set role = $1 where email = $2 returning id`, [
    role,
    user.email,
  ]);
  return { id: rows[0]!.id, user, cookie };
}

/** Sends a generated body to a route, as the signed-in caller of `cookie` (or as no one). */
export function send(
  t: TestApp,
  method: string,
  pathname: string,
  body: Body,
  options: { cookie?: string; clientIp?: string } = {},
) {
  const { headers, body: text } = wire(body);
  return t.request(pathname, { method, headers, body: text, ...options });
}

/**
 * Checks a refusal: the status (exact when given, else any 4xx) and the API's one error shape,
 * `{ "error": { "code", "message", "issues"? } }`, with a message a person can read.
 */
export async function expectRefusal(response: Response, status?: number) {
  if (status === undefined) expect(response.status, "a 4xx").toBeGreaterThanOrEqual(400);
  else expect(response.status).toBe(status);
  expect(response.status).toBeLessThan(500);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = await response.json();
  expect(Object.keys(body)).toEqual(["error"]);
  const { code, message, issues, ...rest } = body.error;
  expect(rest).toEqual({});
  expect(code).toMatch(/^[A-Z_]+$/);
  expect(typeof message).toBe("string");
  expect(message.length).toBeGreaterThan(0);
  if (issues !== undefined) expect(Array.isArray(issues)).toBe(true);
  return body.error as { code: string; message: string };
}

/** Checks a success: a 2xx answer with a JSON body, which it returns. */
export async function expectSuccess(response: Response, status = 200) {
  if (response.status !== status) {
    expect({ status: response.status, body: await response.text() }).toEqual({ status, body: expect.anything() });
  }
  return response.json();
}

/**
 * A digest of every row version of every table a write route can touch: each row's place (ctid) and
 * the transaction that wrote it (xmin). Any insert, update (even to the same values) or delete
 * changes it; a rolled-back write does not. Equal before and after a refused request means it
 * wrote nothing. Cheaper than hashing the rows' contents, which grow with every accepted run.
 */
export async function fingerprint(t: TestApp): Promise<string> {
  const tables = [
    "user",
    "session",
    "account",
    "verification",
    "two_factor",
    "task_progress",
    "answer",
    "day_completion",
    "tutor_feedback",
    "contact_message",
    "review_card",
    "review_log",
    "review_reminder",
    "daily_goal_change",
    "recording",
    "speaking_submission",
    "line_practice",
    "quiet_day",
    "stored_file",
    "voice",
    "voice_consent",
  ];
  const digests = tables.map(
    (table) => `(select md5(coalesce(string_agg(ctid::text || xmin::text, ',' order by ctid), '')) from "${table}")`,
  );
  const { rows } = await t.pool.query<{ digest: string }>(`select concat_ws(',', ${digests.join(", ")}) as digest`);
  return rows[0]!.digest;
}

/**
 * Watches the database across the runs of a property: each check compares it with the state the
 * previous run left, so a run costs one digest. After a failed run the reference is taken afresh,
 * so fast-check's shrinking starts from the real state.
 */
export async function watchDatabase(t: TestApp) {
  let reference = await fingerprint(t);
  return {
    /** Fails unless nothing was written since the last check. */
    async expectUnchanged() {
      expect(await fingerprint(t), "rows written").toBe(reference);
    },
    /** Takes the current state as the reference: after a write that was meant to happen. */
    async settle() {
      reference = await fingerprint(t);
    },
    /** Runs one generated request's checks, settling the reference again if they fail. */
    async run(check: () => Promise<void>) {
      try {
        await check();
      } catch (error) {
        reference = await fingerprint(t);
        throw error;
      }
    },
  };
}

/** Every file under a directory, as paths relative to it. */
export async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(directory, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Counts of the generated requests a property accepted and refused, to show it tried both. */
/**
 * A refused request, counted: the expected 4xx in the error shape (expectRefusal), and not one row
 * version changed since the last check. Answers the error.
 */
export async function expectRefusedAndUnchanged(
  seen: ReturnType<typeof tally>,
  database: Awaited<ReturnType<typeof watchDatabase>>,
  response: Response,
  status?: number,
) {
  seen.counts.refused += 1;
  const error = await expectRefusal(response, status);
  await database.expectUnchanged();
  return error;
}

export function tally() {
  const counts = { accepted: 0, refused: 0 };
  return {
    counts,
    /** Both kinds made up at least `share` of the runs. */
    expectBoth(share = 0.1) {
      const total = counts.accepted + counts.refused;
      expect(counts.accepted, "generated requests the route accepted").toBeGreaterThanOrEqual(total * share);
      expect(counts.refused, "generated requests the route refused").toBeGreaterThanOrEqual(total * share);
    },
  };
}
