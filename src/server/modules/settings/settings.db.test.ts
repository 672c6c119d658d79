import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { dailyGoalChange, user as userTable } from "#server/db/schema";
import { createTestApp } from "#tests/test-app";

const t = await createTestApp();

/** The review settings of a new account (src/course/review-rules.ts), which these tests leave alone. */
const REVIEW_DEFAULTS = {
  dailyGoalUnit: "reviews",
  dailyGoal: 20,
  timeZone: "Asia/Kuala_Lumpur",
  reminderHour: 19,
  newCardsPerDay: 15,
};

async function rowOf(email: string) {
  const [row] = await t.db
    .select({
      theme: userTable.theme,
      emailNotifications: userTable.emailNotifications,
      twoFactorEnabled: userTable.twoFactorEnabled,
      updatedAt: sql<string>`${userTable.updatedAt}::text`,
    })
    .from(userTable)
    .where(eq(userTable.email, email));
  return row!;
}

const patch = (cookie: string, json: unknown) => t.request("/api/settings", { method: "PATCH", cookie, json });

describe("GET /api/settings", () => {
  it("needs a session", async () => {
    const response = await t.request("/api/settings");
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("UNAUTHORIZED");
  });

  it("answers a new account's defaults: light theme, email notifications on, no two-factor, never cached", async () => {
    const { cookie } = await t.signedInUser();
    const response = await t.request("/api/settings", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({
      settings: { theme: "light", emailNotifications: true, twoFactorEnabled: false, ...REVIEW_DEFAULTS },
    });
  });
});

describe("PATCH /api/settings", () => {
  it("stores the theme and the notification preference, one at a time or together", async () => {
    const { user, cookie } = await t.signedInUser();
    const dark = await patch(cookie, { theme: "dark" });
    expect(dark.status).toBe(200);
    expect(await dark.json()).toEqual({
      settings: { theme: "dark", emailNotifications: true, twoFactorEnabled: false, ...REVIEW_DEFAULTS },
    });
    const quiet = await patch(cookie, { emailNotifications: false });
    expect((await quiet.json()).settings).toEqual({
      theme: "dark",
      emailNotifications: false,
      twoFactorEnabled: false,
      ...REVIEW_DEFAULTS,
    });
    const both = await patch(cookie, { theme: "system", emailNotifications: true });
    expect((await both.json()).settings).toEqual({
      theme: "system",
      emailNotifications: true,
      twoFactorEnabled: false,
      ...REVIEW_DEFAULTS,
    });
    expect(await rowOf(user.email)).toMatchObject({ theme: "system", emailNotifications: true });
    // The next visit reads them back.
    expect((await (await t.request("/api/settings", { cookie })).json()).settings.theme).toBe("system");
  });

  it("writes nothing when the values are the ones already stored", async () => {
    const { user, cookie } = await t.signedInUser();
    await patch(cookie, { theme: "dark" });
    const before = await rowOf(user.email);
    const same = await patch(cookie, { theme: "dark", emailNotifications: true });
    expect(same.status).toBe(200);
    expect((await same.json()).settings).toEqual({
      theme: "dark",
      emailNotifications: true,
      twoFactorEnabled: false,
      ...REVIEW_DEFAULTS,
    });
    expect(await rowOf(user.email)).toEqual(before);
  });

  it("keeps the day's goal change with the goal before it, and no change for other settings or the same goal", async () => {
    const { user, cookie } = await t.signedInUser();
    const [row] = await t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, user.email));
    const changes = () =>
      t.db
        .select({
          unit: dailyGoalChange.unit,
          amount: dailyGoalChange.amount,
          previousUnit: dailyGoalChange.previousUnit,
          previousAmount: dailyGoalChange.previousAmount,
        })
        .from(dailyGoalChange)
        .where(eq(dailyGoalChange.userId, row!.id));
    for (const json of [{ theme: "dark" }, { timeZone: "Europe/London", reminderHour: 7 }, { dailyGoal: 20 }]) {
      expect((await patch(cookie, json)).status).toBe(200);
    }
    expect(await changes()).toEqual([]);

    expect((await patch(cookie, { dailyGoalUnit: "minutes" })).status).toBe(200);
    expect(await changes()).toEqual([{ unit: "minutes", amount: 10, previousUnit: "reviews", previousAmount: 20 }]);
    // A second change the same day: one row, the goal before the first change and after the last.
    expect((await patch(cookie, { dailyGoal: 15 })).status).toBe(200);
    expect(await changes()).toEqual([{ unit: "minutes", amount: 15, previousUnit: "reviews", previousAmount: 20 }]);
  });

  it("keeps a time zone in the runtime's own spelling, however it was sent", async () => {
    const { cookie } = await t.signedInUser();
    for (const sent of ["asia/kuala_lumpur", "EUROPE/LONDON", "Europe/London"]) {
      const response = await patch(cookie, { timeZone: sent });
      expect(response.status).toBe(200);
      const expected = sent.toLowerCase() === "europe/london" ? "Europe/London" : "Asia/Kuala_Lumpur";
      expect((await response.json()).settings.timeZone).toBe(expected);
      expect((await (await t.request("/api/settings", { cookie })).json()).settings.timeZone).toBe(expected);
    }
  });

  it("stores the new cards a day, from 0 to 100, and refuses any other with the range", async () => {
    const { cookie } = await t.signedInUser();
    for (const newCardsPerDay of [0, 100, 7]) {
      const response = await patch(cookie, { newCardsPerDay });
      expect(response.status).toBe(200);
      expect((await response.json()).settings.newCardsPerDay).toBe(newCardsPerDay);
    }
    for (const newCardsPerDay of [-1, 101, 2.5, "15", null]) {
      const response = await patch(cookie, { newCardsPerDay });
      expect(response.status).toBe(400);
      const { error } = await response.json();
      expect(error.code).toBe("BAD_REQUEST");
      expect(error.message).toContain("New cards a day must be a whole number from 0 to 100.");
    }
    expect((await (await t.request("/api/settings", { cookie })).json()).settings.newCardsPerDay).toBe(7);
  });

  it("changes only the caller's own settings", async () => {
    const me = await t.signedInUser();
    const other = await t.signedInUser();
    await patch(me.cookie, { theme: "dark", emailNotifications: false });
    expect(await rowOf(other.user.email)).toMatchObject({ theme: "light", emailNotifications: true });
  });

  it.each([
    ["an empty body", {}, "Send at least one setting to change"],
    ["an unknown theme", { theme: "blue" }, 'Theme must be "light", "dark" or "system".'],
    ["a theme that is not text", { theme: 1 }, 'Theme must be "light", "dark" or "system".'],
    ["a notification preference that is not a boolean", { emailNotifications: "yes" }, "must be true or false"],
    ["a null preference", { emailNotifications: null }, "must be true or false"],
    ["two-factor, which is read-only here", { twoFactorEnabled: true }, '"twoFactorEnabled" cannot be changed here'],
    ["a role along with a theme", { theme: "dark", role: "Admin" }, '"role" cannot be changed here'],
    ["an array", ["dark"], "Send the settings as a JSON object"],
  ])("refuses %s with a 400 saying why, and writes nothing", async (_label, body, message) => {
    const { user, cookie } = await t.signedInUser();
    const before = await rowOf(user.email);
    const response = await patch(cookie, body);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toContain(message);
    const [row] = await t.db.select({ role: userTable.role }).from(userTable).where(eq(userTable.email, user.email));
    expect(row!.role).toBe("Student");
    expect(await rowOf(user.email)).toEqual(before);
  });

  it("refuses malformed JSON and a body that is not JSON", async () => {
    const { cookie } = await t.signedInUser();
    const malformed = await t.request("/api/settings", {
      method: "PATCH",
      cookie,
      headers: { "content-type": "application/json" },
      body: '{"theme": ',
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.message).toBe("The request body is not valid JSON.");
    const text = await t.request("/api/settings", {
      method: "PATCH",
      cookie,
      headers: { "content-type": "text/plain" },
      body: "theme=dark",
    });
    expect(text.status).toBe(400);
  });

  it("refuses an oversize body with 413", async () => {
    const { cookie } = await t.signedInUser();
    const response = await patch(cookie, { theme: "x".repeat(100_000) });
    expect(response.status).toBe(413);
  });

  it("needs a session, and reads no body without one", async () => {
    const response = await patch("", { theme: "dark" });
    expect(response.status).toBe(401);
  });
});
