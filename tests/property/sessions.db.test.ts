import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestApp } from "#tests/test-app";
import { type Body, bodies, junk, RUNS, received } from "./arbitraries";
import { expectRefusal, expectSuccess, fingerprint, send, signedInAs } from "./harness";

const t = await createTestApp();
/** The caller, and an account whose sessions must survive the caller's request. */
const me = await signedInAs(t);
const someoneElse = await signedInAs(t);

describe("POST /api/account/sessions/revoke-others with generated bodies", () => {
  /** Other devices of the account: a session row for each, expired or not. */
  async function addSessions(userId: string, expired: readonly boolean[]) {
    if (expired.length === 0) return;
    await t.pool.query(
      `insert into session (id, token, user_id, expires_at)
       select md5(random()::text), md5(random()::text) || md5(random()::text), $1,
              now() + case when gone then interval '-1 day' else interval '7 days' end
         from unnest($2::boolean[]) as gone`,
      [userId, expired],
    );
  }

  async function sessionsOf(userId: string): Promise<string[]> {
    const { rows } = await t.pool.query<{ id: string }>(`select id from session where user_id = $1 order by id`, [
      userId,
    ]);
    return rows.map((row) => row.id);
  }

  it(`answers ${RUNS} requests: other devices signed out and counted, any body ignored, the caller stays signed in`, async () => {
    const [current] = await sessionsOf(me.id);
    // The route reads no body: whatever is sent, the caller's other sessions go.
    const anyBody: fc.Arbitrary<Body> = bodies(junk, ["devices"]);
    const devices = fc.array(fc.boolean(), { maxLength: 3 });
    let revoked = 0;
    await fc.assert(
      fc.asyncProperty(anyBody, devices, devices, async (body, mine, theirs) => {
        await addSessions(me.id, mine);
        await addSessions(someoneElse.id, theirs);
        const othersBefore = await sessionsOf(someoneElse.id);
        if (received(body).kind === "too-large") {
          const before = await fingerprint(t);
          const response = await send(t, "POST", "/api/account/sessions/revoke-others", body, { cookie: me.cookie });
          await expectRefusal(response, 413);
          expect(await fingerprint(t)).toBe(before);
          // Clean up for the next run, as the route would have.
          await t.pool.query(`delete from session where user_id = $1 and id <> $2`, [me.id, current]);
          return;
        }
        const response = await send(t, "POST", "/api/account/sessions/revoke-others", body, { cookie: me.cookie });
        // Expired sessions go too, but only the ones the device list showed are counted.
        expect(await expectSuccess(response)).toEqual({ revoked: mine.filter((expired) => !expired).length });
        expect(await sessionsOf(me.id)).toEqual([current]);
        expect(await sessionsOf(someoneElse.id)).toEqual(othersBefore);
        revoked += 1;
      }),
      { numRuns: RUNS },
    );
    expect(revoked).toBeGreaterThan(RUNS / 2);
  }, 300_000);
});
