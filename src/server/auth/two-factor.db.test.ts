import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { session as sessionTable, twoFactor as twoFactorTable, user as userTable } from "#server/db/schema";
import { cookieJar, createTestApp, type TestUser } from "#tests/test-app";
import { parseTotpUri, totpCode, wrongTotpCode } from "#tests/totp";
import { enableTwoFactor } from "#tests/two-factor";

const t = await createTestApp();

type Jar = ReturnType<typeof cookieJar>;

const post = async (path: string, jar: Jar, json: unknown) =>
  jar.store(await t.request(`/api/auth${path}`, { method: "POST", cookie: jar.header, json }));

async function userId(email: string): Promise<string> {
  const [row] = await t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, email));
  return row!.id;
}

async function sessionsOf(email: string) {
  return t.db
    .select({ id: sessionTable.id })
    .from(sessionTable)
    .where(eq(sessionTable.userId, await userId(email)));
}

const profileStatus = async (jar: Jar) => (await t.request("/api/profile", { cookie: jar.header })).status;

async function twoFactorEnabled(jar: Jar): Promise<boolean> {
  return (await (await t.request("/api/settings", { cookie: jar.header })).json()).settings.twoFactorEnabled;
}

/** Signs in with email and password: a fresh jar holding whatever the first step set. */
async function signInStep(user: TestUser) {
  const jar = cookieJar();
  const response = await post("/sign-in/email", jar, { email: user.email, password: user.password });
  return { jar, response, body: await response.json() };
}

/** A learner with two-factor sign-in on. */
async function learnerWithTwoFactor() {
  const { user, cookie } = await t.signedInUser();
  return { user, ...(await enableTwoFactor(t, user.password, cookie)) };
}

describe("turning two-factor sign-in on", () => {
  it("needs the password, shows a Jalan authenticator URI and ten backup codes, and is on only once a code is verified", async () => {
    const { user, cookie } = await t.signedInUser();
    const jar = cookieJar(cookie);

    const wrong = await post("/two-factor/enable", jar, { password: "not-my-password" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).message).toBe("Invalid password");
    const missing = await post("/two-factor/enable", jar, {});
    expect(missing.status).toBe(400);
    expect(
      await t.db
        .select()
        .from(twoFactorTable)
        .where(eq(twoFactorTable.userId, await userId(user.email))),
    ).toEqual([]);

    const enabled = await post("/two-factor/enable", jar, { password: user.password });
    expect(enabled.status).toBe(200);
    const { totpURI, backupCodes } = await enabled.json();
    const totp = parseTotpUri(totpURI);
    expect(totp).toMatchObject({ issuer: "Jalan", label: `Jalan:${user.email}`, digits: 6, period: 30 });
    expect(totp.secret.length).toBeGreaterThanOrEqual(20);
    expect(backupCodes).toHaveLength(10);
    expect(new Set(backupCodes).size).toBe(10);
    // Not on until the learner proves their app shows the right codes.
    expect(await twoFactorEnabled(jar)).toBe(false);

    const refused = await post("/two-factor/verify-totp", jar, { code: wrongTotpCode(totpURI) });
    expect(refused.status).toBe(401);
    expect(await twoFactorEnabled(jar)).toBe(false);

    const verified = await post("/two-factor/verify-totp", jar, { code: totpCode(totpURI) });
    expect(verified.status).toBe(200);
    // Turning it on replaces the session; the jar now holds the new cookie.
    expect(await profileStatus(jar)).toBe(200);
    expect(await twoFactorEnabled(jar)).toBe(true);
  });

  it("stores the secret and the backup codes encrypted, never as the learner sees them", async () => {
    const { user, totpURI, backupCodes } = await learnerWithTwoFactor();
    const [row] = await t.db
      .select()
      .from(twoFactorTable)
      .where(eq(twoFactorTable.userId, await userId(user.email)));
    const secret = new URL(totpURI).searchParams.get("secret")!;
    expect(row!.verified).toBe(true);
    expect(row!.secret).not.toContain(secret);
    expect(row!.secret).not.toContain(parseTotpUri(totpURI).secret.toString());
    for (const code of backupCodes) expect(row!.backupCodes).not.toContain(code);
  });
});

describe("signing in with two-factor on", () => {
  it("asks for a code after the password, with no session until the right code is given", async () => {
    const { user, jar, totpURI } = await learnerWithTwoFactor();
    expect((await post("/sign-out", jar, {})).status).toBe(200);
    expect(await sessionsOf(user.email)).toEqual([]);

    const first = await signInStep(user);
    expect(first.response.status).toBe(200);
    expect(first.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect(first.jar.names()).toEqual(["better-auth.two_factor"]);
    expect(await sessionsOf(user.email)).toEqual([]);
    expect(await profileStatus(first.jar)).toBe(401);

    const wrong = await post("/two-factor/verify-totp", first.jar, { code: wrongTotpCode(totpURI) });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).message).toBe("Invalid code");
    expect(await sessionsOf(user.email)).toEqual([]);
    expect(await profileStatus(first.jar)).toBe(401);

    const right = await post("/two-factor/verify-totp", first.jar, { code: totpCode(totpURI) });
    expect(right.status).toBe(200);
    expect(first.jar.names()).toEqual(["better-auth.session_token"]);
    expect(await sessionsOf(user.email)).toHaveLength(1);
    expect(await profileStatus(first.jar)).toBe(200);
    expect(await twoFactorEnabled(first.jar)).toBe(true);
  });

  it("refuses a code without the cookie of a sign-in under way", async () => {
    const { totpURI } = await learnerWithTwoFactor();
    const stranger = await post("/two-factor/verify-totp", cookieJar(), { code: totpCode(totpURI) });
    expect(stranger.status).toBe(401);
    expect((await stranger.json()).message).toBe("Invalid two factor cookie");
  });

  it("accepts each backup code once", async () => {
    const { user, jar, backupCodes } = await learnerWithTwoFactor();
    await post("/sign-out", jar, {});

    const first = await signInStep(user);
    const used = await post("/two-factor/verify-backup-code", first.jar, { code: backupCodes[0] });
    expect(used.status).toBe(200);
    expect(await profileStatus(first.jar)).toBe(200);
    await post("/sign-out", first.jar, {});

    const again = await signInStep(user);
    const reused = await post("/two-factor/verify-backup-code", again.jar, { code: backupCodes[0] });
    expect(reused.status).toBe(401);
    expect((await reused.json()).message).toBe("Invalid backup code");
    expect(await profileStatus(again.jar)).toBe(401);
    expect(await sessionsOf(user.email)).toEqual([]);

    const next = await post("/two-factor/verify-backup-code", again.jar, { code: backupCodes[1] });
    expect(next.status).toBe(200);
    expect(await profileStatus(again.jar)).toBe(200);
  });

  it("ends a sign-in after five wrong codes: even the right code needs a new sign-in", async () => {
    const { user, jar, totpURI } = await learnerWithTwoFactor();
    await post("/sign-out", jar, {});
    const attempt = await signInStep(user);
    for (let i = 0; i < 5; i += 1) {
      expect((await post("/two-factor/verify-totp", attempt.jar, { code: wrongTotpCode(totpURI) })).status).toBe(401);
    }
    const late = await post("/two-factor/verify-totp", attempt.jar, { code: totpCode(totpURI) });
    expect(late.status).toBe(400);
    expect((await late.json()).message).toBe("Too many attempts. Please request a new code.");
    expect(await sessionsOf(user.email)).toEqual([]);

    const fresh = await signInStep(user);
    expect((await post("/two-factor/verify-totp", fresh.jar, { code: totpCode(totpURI) })).status).toBe(200);
    expect(await profileStatus(fresh.jar)).toBe(200);
  });

  it("locks the account's code check for a while after ten wrong codes in a row, across sign-ins", async () => {
    const { user, jar, totpURI } = await learnerWithTwoFactor();
    await post("/sign-out", jar, {});
    for (let round = 0; round < 2; round += 1) {
      const attempt = await signInStep(user);
      for (let i = 0; i < 5; i += 1)
        await post("/two-factor/verify-totp", attempt.jar, { code: wrongTotpCode(totpURI) });
    }
    const locked = await signInStep(user);
    const right = await post("/two-factor/verify-totp", locked.jar, { code: totpCode(totpURI) });
    expect(right.status).toBe(429);
    expect((await right.json()).message).toMatch(/temporarily locked/);
    expect(await sessionsOf(user.email)).toEqual([]);
  });

  it("still refuses a wrong password before any code is asked", async () => {
    const { user } = await learnerWithTwoFactor();
    const response = await t.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: user.email, password: "not-my-password" },
    });
    expect(response.status).toBe(401);
    expect(response.headers.getSetCookie().join()).not.toContain("two_factor=");
  });
});

describe("turning two-factor sign-in off", () => {
  it("needs the password, removes the secret, and sign-in is one step again", async () => {
    const { user, jar } = await learnerWithTwoFactor();
    const id = await userId(user.email);

    const wrong = await post("/two-factor/disable", jar, { password: "not-my-password" });
    expect(wrong.status).toBe(400);
    expect(await twoFactorEnabled(jar)).toBe(true);

    const disabled = await post("/two-factor/disable", jar, { password: user.password });
    expect(disabled.status).toBe(200);
    expect(await profileStatus(jar)).toBe(200);
    expect(await twoFactorEnabled(jar)).toBe(false);
    expect(await t.db.select().from(twoFactorTable).where(eq(twoFactorTable.userId, id))).toEqual([]);

    await post("/sign-out", jar, {});
    const again = await signInStep(user);
    expect(again.response.status).toBe(200);
    expect(again.body.twoFactorRedirect).toBeUndefined();
    expect(await profileStatus(again.jar)).toBe(200);
  });
});

describe("two-factor and the rest of the account", () => {
  it("keeps the field out of sign-up input: twoFactorEnabled in the body is ignored", async () => {
    const { email, password } = { email: `tf-${Date.now()}@example.com`, password: "kopi-o-kosong" };
    const response = await t.request("/api/auth/sign-up/email", {
      method: "POST",
      json: { email, password, name: "A B", firstName: "A", lastName: "B", twoFactorEnabled: true },
    });
    expect(response.status).toBe(200);
    const [row] = await t.db
      .select({ twoFactorEnabled: userTable.twoFactorEnabled })
      .from(userTable)
      .where(eq(userTable.email, email));
    expect(row!.twoFactorEnabled).toBe(false);
  });

  it("does not offer codes by email: the plugin's OTP endpoints are off", async () => {
    const { user, jar } = await learnerWithTwoFactor();
    await post("/sign-out", jar, {});
    const attempt = await signInStep(user);
    expect((await post("/two-factor/send-otp", attempt.jar, {})).status).toBe(404);
    expect((await post("/two-factor/verify-otp", attempt.jar, { code: "123456" })).status).toBe(404);
  });

  it("lets a password change keep the second factor and sign out the other devices", async () => {
    const { user, jar, totpURI } = await learnerWithTwoFactor();
    const other = await signInStep(user);
    await post("/two-factor/verify-totp", other.jar, { code: totpCode(totpURI) });
    expect(await profileStatus(other.jar)).toBe(200);

    const changed = await post("/change-password", jar, { currentPassword: user.password, newPassword: "nasi-lemak" });
    expect(changed.status).toBe(200);
    expect(await profileStatus(jar)).toBe(200);
    expect(await profileStatus(other.jar)).toBe(401);
    const next = await signInStep({ ...user, password: "nasi-lemak" });
    expect(next.body.twoFactorRedirect).toBe(true);
  });
});
