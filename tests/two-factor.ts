import { expect } from "vitest";
import { cookieJar, type TestApp } from "./test-app";
import { totpCode } from "./totp";

/**
 * Turns two-factor sign-in on for a signed-in account, as the Settings page does: the password to
 * enable, then a code from the authenticator URI. The jar holds the session that replaces the old one.
 */
export async function enableTwoFactor(t: TestApp, password: string, cookie: string) {
  const jar = cookieJar(cookie);
  const enabled = jar.store(
    await t.request("/api/auth/two-factor/enable", { method: "POST", cookie: jar.header, json: { password } }),
  );
  expect(enabled.status).toBe(200);
  const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
  const verified = jar.store(
    await t.request("/api/auth/two-factor/verify-totp", {
      method: "POST",
      cookie: jar.header,
      json: { code: totpCode(totpURI) },
    }),
  );
  expect(verified.status).toBe(200);
  return { jar, totpURI, backupCodes };
}
