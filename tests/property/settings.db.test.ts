import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTestApp } from "#tests/test-app";
import { bodies, hasOnlyKeys, isPlainObject, RUNS, received } from "./arbitraries";
import { expectRefusedAndUnchanged, expectSuccess, send, signedInAs, tally, watchDatabase } from "./harness";

const t = await createTestApp();
const { id: userId, cookie } = await signedInAs(t);

const THEMES = ["light", "dark", "system"];
const UNITS = ["reviews", "minutes"];
/** A unit sent without a goal takes this goal (src/course/review-rules.ts). */
const UNIT_DEFAULT_GOAL: Record<string, number> = { reviews: 20, minutes: 10 };
const KEYS = [
  "theme",
  "emailNotifications",
  "dailyGoalUnit",
  "dailyGoal",
  "timeZone",
  "reminderHour",
  "newCardsPerDay",
];

interface Settings {
  theme: string;
  emailNotifications: boolean;
  dailyGoalUnit: string;
  dailyGoal: number;
  timeZone: string;
  reminderHour: number;
  newCardsPerDay: number;
}

async function storedSettings(): Promise<Settings> {
  const { rows } = await t.pool.query<Settings>(
    `select theme, email_notifications as "emailNotifications", daily_goal_unit as "dailyGoalUnit",
            daily_goal as "dailyGoal", time_zone as "timeZone", reminder_hour as "reminderHour",
            new_cards_per_day as "newCardsPerDay"
       from "user" where id = $1`,
    [userId],
  );
  return rows[0]!;
}

/** A zone name the runtime knows, of at most 64 characters (UTF-16 units, as the schema counts). */
function isZone(value: unknown): value is string {
  if (typeof value !== "string" || value.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-CA", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const isWhole = (value: unknown, min: number, max: number) =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max;

/**
 * PATCH /api/settings: any of the settings, at least one, nothing else; a theme of three, a true
 * or false, a unit of two, a whole goal of 1 to 500, a known time zone, a whole hour of 0 to 23, a
 * whole number of new cards a day of 0 to 100.
 */
function settingsChange(value: unknown): Partial<Settings> | null {
  if (!isPlainObject(value) || !hasOnlyKeys(value, KEYS, []) || Object.keys(value).length === 0) return null;
  if ("theme" in value && !THEMES.includes(value.theme as string)) return null;
  if ("emailNotifications" in value && typeof value.emailNotifications !== "boolean") return null;
  if ("dailyGoalUnit" in value && !UNITS.includes(value.dailyGoalUnit as string)) return null;
  if ("dailyGoal" in value && !isWhole(value.dailyGoal, 1, 500)) return null;
  if ("timeZone" in value && !isZone(value.timeZone)) return null;
  if ("reminderHour" in value && !isWhole(value.reminderHour, 0, 23)) return null;
  if ("newCardsPerDay" in value && !isWhole(value.newCardsPerDay, 0, 100)) return null;
  return value as Partial<Settings>;
}

const validChange = fc
  .record(
    {
      theme: fc.constantFrom(...THEMES),
      emailNotifications: fc.boolean(),
      dailyGoalUnit: fc.constantFrom(...UNITS),
      dailyGoal: fc.oneof(fc.constantFrom(1, 5, 10, 20, 500), fc.integer({ min: 1, max: 500 })),
      timeZone: fc.constantFrom("Asia/Kuala_Lumpur", "Europe/London", "Pacific/Kiritimati", "America/Sao_Paulo", "UTC"),
      reminderHour: fc.integer({ min: 0, max: 23 }),
      newCardsPerDay: fc.oneof(fc.constantFrom(0, 15, 100), fc.integer({ min: 0, max: 100 })),
    },
    { requiredKeys: [] },
  )
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
          if (
            change.dailyGoalUnit !== undefined &&
            change.dailyGoal === undefined &&
            change.dailyGoalUnit !== before.dailyGoalUnit
          ) {
            expected.dailyGoal = UNIT_DEFAULT_GOAL[change.dailyGoalUnit]!;
          }
          expect((await expectSuccess(response)).settings).toEqual({ ...expected, twoFactorEnabled: false });
          expect(await storedSettings()).toEqual(expected);
          // The same values again write nothing, so updated_at keeps the time of the last change.
          if (KEYS.every((key) => expected[key as keyof Settings] === before[key as keyof Settings])) {
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
