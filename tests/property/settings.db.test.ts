import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestApp } from "../test-app";
import { bodies, hasOnlyKeys, isPlainObject, RUNS, received } from "./arbitraries";
import { expectRefusedAndUnchanged, expectSuccess, send, signedInAs, tally, watchDatabase } from "./harness";

const t = await createTestApp();
const { id: userId, cookie } = await signedInAs(t);

const THEMES = ["light", "dark", "system"];
const KEYS = ["theme", "emailNotifications"];

interface Settings {
  theme: string;
  emailNotifications: boolean;
}

async function storedSettings(): Promise<Settings> {
  const { rows } = await t.pool.query<Settings>(
    `select theme, email_notifications as "emailNotifications" from "user" where id = $1`,
    [userId],
  );
  return rows[0]!;
}

/** PATCH /api/settings: either setting or both, nothing else; a theme of three, a true or false. */
function settingsChange(value: unknown): Partial<Settings> | null {
  if (!isPlainObject(value) || !hasOnlyKeys(value, KEYS, []) || Object.keys(value).length === 0) return null;
  if ("theme" in value && !THEMES.includes(value.theme as string)) return null;
  if ("emailNotifications" in value && typeof value.emailNotifications !== "boolean") return null;
  return value as Partial<Settings>;
}

const validChange = fc
  .record({ theme: fc.constantFrom(...THEMES), emailNotifications: fc.boolean() }, { requiredKeys: [] })
  .filter((change) => Object.keys(change).length > 0);

describe("PATCH /api/settings with generated bodies", () => {
  it(`answers ${RUNS} bodies: valid ones saved, the rest a 4xx that writes nothing`, async () => {
    const seen = tally();
    const database = await watchDatabase(t);
    await fc.assert(
      fc.asyncProperty(bodies(validChange, KEYS), (body) =>
        database.run(async () => {
          const before = await storedSettings();
          const response = await send(t, "PATCH", "/api/settings", body, { cookie });
          const view = received(body);
          const change = view.kind === "json" ? settingsChange(view.value) : null;
          if (!change) {
            await expectRefusedAndUnchanged(seen, database, response, view.kind === "too-large" ? 413 : 400);
            return;
          }
          seen.counts.accepted += 1;
          const expected = { ...before, ...change };
          expect((await expectSuccess(response)).settings).toEqual({ ...expected, twoFactorEnabled: false });
          expect(await storedSettings()).toEqual(expected);
          // The same values again write nothing, so updated_at keeps the time of the last change.
          if (expected.theme === before.theme && expected.emailNotifications === before.emailNotifications) {
            await database.expectUnchanged();
          } else {
            await database.settle();
          }
        }),
      ),
      { numRuns: RUNS },
    );
    seen.expectBoth();
  }, 300_000);
});
