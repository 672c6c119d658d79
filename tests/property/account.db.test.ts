import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestApp, newUser } from "#tests/test-app";
import { anyText, bodies, characters, hasOnlyKeys, isPlainObject, RUNS, received } from "./arbitraries";
import { expectRefusal, expectSuccess, send, tally, watchDatabase } from "./harness";

const t = await createTestApp();
/** Every account here has this password: spaces and a character outside ASCII go through JSON intact. */
const PASSWORD = "Kopi-O kosong ☕ 42";

async function account() {
  const user = await t.signUp(newUser({ password: PASSWORD }));
  const cookie = await t.signIn(user);
  const { rows } = await t.pool.query<{ id: string }>(`select id from "user" where email = $1`, [user.email]);
  return { id: rows[0]!.id, cookie };
}

async function rowsOf(userId: string) {
  const { rows } = await t.pool.query(
    `select (select count(*)::int from "user" where id = $1) as users,
            (select count(*)::int from session where user_id = $1) as sessions,
            (select count(*)::int from account where user_id = $1) as credentials`,
    [userId],
  );
  return rows[0];
}

/** Fewer bodies with a password to check: each check costs a password hash. */
const password = fc.oneof(
  { weight: 1, arbitrary: fc.constant(PASSWORD) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      anyText(40),
      fc.constantFrom(` ${PASSWORD}`, PASSWORD.toUpperCase(), PASSWORD.slice(0, -1), "x".repeat(129)),
    ),
  },
);

/** The password, 1 to 128 characters, and nothing else. */
function passwordOf(value: unknown): string | null {
  if (!isPlainObject(value) || !hasOnlyKeys(value, ["password"])) return null;
  const { password: sent } = value;
  if (typeof sent !== "string" || sent.length === 0 || characters(sent) > 128 || sent.includes("\u0000")) return null;
  return sent;
}

describe("DELETE /api/account with generated bodies", () => {
  it(`answers ${RUNS} bodies: the right password deletes the account, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    let me = await account();
    const database = await watchDatabase(t);
    await fc.assert(
      fc.asyncProperty(bodies(fc.record({ password }), ["password"], { validWeight: 1 }), (body) =>
        database.run(async () => {
          const response = await send(t, "DELETE", "/api/account", body, { cookie: me.cookie });
          const view = received(body);
          const sent = view.kind === "json" ? passwordOf(view.value) : null;
          if (sent !== PASSWORD) {
            seen.counts.refused += 1;
            const error = await expectRefusal(response, view.kind === "too-large" ? 413 : 400);
            if (sent !== null)
              expect(error).toEqual({ code: "INVALID_PASSWORD", message: "That password is not correct." });
            expect(await rowsOf(me.id)).toEqual({ users: 1, sessions: 1, credentials: 1 });
            await database.expectUnchanged();
            return;
          }
          seen.counts.accepted += 1;
          expect(await expectSuccess(response)).toEqual({ deleted: true });
          expect(await rowsOf(me.id)).toEqual({ users: 0, sessions: 0, credentials: 0 });
          // The next runs need an account to delete.
          me = await account();
          await database.settle();
        }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth(0.01);
  }, 300_000);
});

describe("POST /api/account/confirm-password with generated bodies", () => {
  it(`answers ${RUNS} bodies: the right password confirms this session, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const me = await account();
    const confirmedAt = async () =>
      (
        await t.pool.query<{ at: Date | null }>(`select password_confirmed_at as at from session where user_id = $1`, [
          me.id,
        ])
      ).rows.map((row) => row.at);
    const database = await watchDatabase(t);
    await fc.assert(
      fc.asyncProperty(bodies(fc.record({ password }), ["password"], { validWeight: 1 }), (body) =>
        database.run(async () => {
          const response = await send(t, "POST", "/api/account/confirm-password", body, { cookie: me.cookie });
          const view = received(body);
          const sent = view.kind === "json" ? passwordOf(view.value) : null;
          if (sent !== PASSWORD) {
            seen.counts.refused += 1;
            const error = await expectRefusal(response, view.kind === "too-large" ? 413 : 400);
            if (sent !== null)
              expect(error).toEqual({ code: "INVALID_PASSWORD", message: "That password is not correct." });
            await database.expectUnchanged();
            return;
          }
          seen.counts.accepted += 1;
          const before = Date.now();
          expect(await expectSuccess(response)).toEqual({ confirmed: true });
          const [at] = await confirmedAt();
          expect(at!.getTime()).toBeGreaterThan(before - 5_000);
          await database.settle();
        }),
      ),
      { numRuns: RUNS },
    );
    expect(await confirmedAt()).toHaveLength(1);
    seen.expectBoth(0.01);
  }, 300_000);
});
