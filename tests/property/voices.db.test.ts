import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { VOICE_ACCENT_IDS } from "#course/voices";
import { createTestApp } from "#tests/test-app";
import {
  anyText,
  bodies,
  fieldText,
  hasOnlyKeys,
  isOneLineText,
  isPlainObject,
  RUNS,
  received,
  segment,
  stored,
  unroutable,
} from "./arbitraries";
import { expectRefusedAndUnchanged, expectSuccess, send, signedInAs, tally, watchDatabase } from "./harness";

const t = await createTestApp();
const admin = await signedInAs(t, "Admin");
const tutor = await signedInAs(t, "Tutor");
const learner = await signedInAs(t);
/** A voice before every run: a second grant of them is refused, and the changes address them. */
const standing = await signedInAs(t, "Tutor");
await t.pool.query(`insert into voice (user_id, credited_name, accent) values ($1, 'Aina', 'johor')`, [standing.id]);
const ROLE_OF = new Map([
  [admin.id, "Admin"],
  [tutor.id, "Tutor"],
  [learner.id, "Student"],
  [standing.id, "Tutor"],
]);
const ACCENTS: readonly string[] = VOICE_ACCENT_IDS;

const nameOf = (value: unknown) => (isOneLineText(value, 1, 60) ? stored(value.trim()) : null);
const accentOf = (value: unknown) => (typeof value === "string" && ACCENTS.includes(value) ? value : null);

async function grants() {
  const { rows } = await t.pool.query(
    `select user_id as "userId", credited_name as "creditedName", accent, granted_by as "grantedBy" from voice order by user_id`,
  );
  return rows;
}

describe("POST /api/voices with generated bodies", () => {
  const KEYS = ["userId", "creditedName", "accent"];
  /** The grant a body asks for, or null when the contract refuses it. */
  function grantOf(value: unknown) {
    if (!isPlainObject(value) || !hasOnlyKeys(value, KEYS)) return null;
    const creditedName = nameOf(value.creditedName);
    const accent = accentOf(value.accent);
    const { userId } = value;
    const isId =
      typeof userId === "string" && !userId.includes("\u0000") && userId.length > 0 && [...userId].length <= 200;
    return isId && creditedName && accent ? { userId, creditedName, accent } : null;
  }

  it(`answers ${RUNS} bodies: a Tutor or Admin made a voice, a learner 422, a voice 409, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    const validGrant = fc.record({
      userId: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ROLE_OF.keys()) }, anyText(20)),
      creditedName: fieldText(60),
      accent: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...ACCENTS) }, anyText(12)),
    });
    await fc.assert(
      fc.asyncProperty(bodies(validGrant, KEYS, { validWeight: 12 }), (body) =>
        database.run(async () => {
          const before = await grants();
          const response = await send(t, "POST", "/api/voices", body, { cookie: admin.cookie });
          const view = received(body);
          const grant = view.kind === "json" ? grantOf(view.value) : null;
          const role = grant ? ROLE_OF.get(grant.userId) : undefined;
          let expected: number;
          if (view.kind === "too-large") expected = 413;
          else if (!grant) expected = 400;
          else if (!role) expected = 404;
          else if (role === "Student") expected = 422;
          else if (grant.userId === standing.id) expected = 409;
          else {
            seen.counts.accepted += 1;
            const { voice } = await expectSuccess(response, 201);
            expect(voice).toMatchObject({ ...grant, role, mayRecord: false, consentedAt: null });
            expect(await grants()).toEqual(
              [...before, { ...grant, grantedBy: admin.id }].sort((a, b) => (a.userId < b.userId ? -1 : 1)),
            );
            // Revoked again, so that the next run may grant it too.
            await t.pool.query(`delete from voice where user_id = $1`, [grant.userId]);
            await database.settle();
            return;
          }
          await expectRefusedAndUnchanged(seen, database, response, expected);
        }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});

describe("PATCH /api/voices/:userId with generated ids and bodies", () => {
  const KEYS = ["creditedName", "accent"];
  /** The change a body asks for, or null when the contract refuses it. */
  function changeOf(value: unknown) {
    if (!isPlainObject(value) || !hasOnlyKeys(value, KEYS, [])) return null;
    const change: { creditedName?: string; accent?: string } = {};
    if ("creditedName" in value) {
      const name = nameOf(value.creditedName);
      if (!name) return null;
      change.creditedName = name;
    }
    if ("accent" in value) {
      const accent = accentOf(value.accent);
      if (!accent) return null;
      change.accent = accent;
    }
    return Object.keys(change).length > 0 ? change : null;
  }

  it(`answers ${RUNS} requests: the voice's name or accent changed, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    const validChange = fc.record(
      { creditedName: fieldText(60), accent: fc.constantFrom(...ACCENTS) },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(segment([standing.id, tutor.id]), bodies(validChange, KEYS, { validWeight: 12 }), (id, body) =>
        database.run(async () => {
          const before = await grants();
          const response = await send(t, "PATCH", `/api/voices/${id.path}`, body, { cookie: admin.cookie });
          const view = received(body);
          const change = view.kind === "json" ? changeOf(view.value) : null;
          let expected: number | undefined;
          if (view.kind === "too-large") expected = 413;
          else if (unroutable(id)) expected = 404;
          else if (!change) expected = 400;
          else if (id.value === null) expected = undefined;
          else if (id.value.includes("\u0000")) expected = 400;
          else if (id.value !== standing.id) expected = 404;
          else {
            seen.counts.accepted += 1;
            const { voice } = await expectSuccess(response);
            const after = before.map((row) => (row.userId === standing.id ? { ...row, ...change } : row));
            expect(voice).toMatchObject({ userId: standing.id, ...change });
            expect(await grants()).toEqual(after);
            await database.settle();
            return;
          }
          await expectRefusedAndUnchanged(seen, database, response, expected);
        }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});
