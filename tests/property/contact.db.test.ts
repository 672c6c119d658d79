import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestApp } from "#tests/test-app";
import {
  bodies,
  characters,
  fieldText,
  hasOnlyKeys,
  isOneLineText,
  isPlainObject,
  isText,
  linesText,
  RUNS,
  received,
  stored,
} from "./arbitraries";
import { expectRefusedAndUnchanged, expectSuccess, send, signedInAs, tally, watchDatabase } from "./harness";

const t = await createTestApp();
const learner = await signedInAs(t);
const KEYS = ["fullName", "email", "message"];

/**
 * An email address as the form takes it: a local part of letters, digits and _ ' + - . (not
 * starting with a dot, no two dots together, not ending with '), an @, then labels of letters,
 * digits and hyphens (each starting with a letter or digit) separated by dots, ending with a
 * top-level label of two or more letters.
 */
const EMAIL = /^(?!\.)(?!.*\.\.)[A-Za-z0-9_'+\-.]*[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** POST /api/contact: the three fields, trimmed: a one-line name of 1-100, an address of at most 254, a message of 1-5000 lines. */
function contactInput(value: unknown) {
  if (!isPlainObject(value) || !hasOnlyKeys(value, KEYS)) return null;
  const { fullName, email, message } = value;
  const lines = linesText(message, 1, 5000);
  if (!isOneLineText(fullName, 1, 100) || lines === null || !isText(email, 1, 254)) return null;
  if (!EMAIL.test(email.trim())) return null;
  return { fullName: stored(fullName.trim()), email: email.trim(), message: lines };
}

const email = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.stringMatching(/^[A-Za-z0-9_+-]{1,12}(\.[A-Za-z0-9_'+-]{0,6}[A-Za-z0-9_+-])?$/),
        fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,12}(\.[a-z0-9][a-z0-9-]{0,8}){0,2}\.[a-z]{2,6}$/),
        fc.constantFrom("", " ", "\t"),
      )
      .map(([local, domain, space]) => `${space}${local}@${domain}${space}`),
  },
  fc.constantFrom(
    "siti",
    "siti@",
    "@example.com",
    "siti@example",
    "siti@example.c",
    "siti..aminah@example.com",
    ".siti@example.com",
    "siti'@example.com",
    "siti@-example.com",
    "siti aminah@example.com",
    "siti@exa mple.com",
    "siti@@example.com",
    `${"a".repeat(250)}@example.com`,
  ),
);
const validInput = fc.record({ fullName: fieldText(100), email, message: fieldText(5000) });

describe("POST /api/contact with generated bodies", () => {
  it(`answers ${RUNS} bodies, signed in or not: messages stored trimmed, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    let client = 0;
    await fc.assert(
      fc.asyncProperty(bodies(validInput, KEYS, { validWeight: 8 }), fc.boolean(), (body, signedIn) =>
        database.run(async () => {
          // A new address for each request, so the per-client limit of five an hour never answers.
          client += 1;
          const clientIp = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
          const response = await send(t, "POST", "/api/contact", body, {
            clientIp,
            ...(signedIn ? { cookie: learner.cookie } : {}),
          });
          const view = received(body);
          const input = view.kind === "json" ? contactInput(view.value) : null;
          if (!input) {
            await expectRefusedAndUnchanged(seen, database, response, view.kind === "too-large" ? 413 : 400);
            return;
          }
          seen.counts.accepted += 1;
          expect(await expectSuccess(response, 201)).toEqual({ ok: true });
          const { rows } = await t.pool.query(
            `select full_name as "fullName", email, message, user_id as "userId" from contact_message
              order by created_at desc, id desc limit 1`,
          );
          expect(rows).toEqual([{ ...input, userId: signedIn ? learner.id : null }]);
          expect(characters(input.email)).toBeLessThanOrEqual(254);
          await database.settle();
        }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});
