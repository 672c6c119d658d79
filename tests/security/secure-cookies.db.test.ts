import { describe, expect, it, vi } from "vitest";
import { createTestApp, newUser, type TestApp } from "#tests/test-app";

// PUBLIC_URL decides the cookies: with https://, Better Auth names them __Secure- and marks them
// Secure, which a browser then sends only over HTTPS and lets no plain-HTTP page overwrite. The
// session middleware must read the cookie under that name too (src/server/auth/session.ts).
const HTTPS_ORIGIN = "https://jalan.example";
const HTTP_ORIGIN = "http://jalan.example";
const secure = await createTestApp({ PUBLIC_URL: HTTPS_ORIGIN });
const plain = await createTestApp({ PUBLIC_URL: HTTP_ORIGIN });

interface SetCookie {
  name: string;
  value: string;
  /** Attribute names in lower case, with their values ("" for flags such as Secure). */
  attributes: Map<string, string>;
}

function parseSetCookie(header: string): SetCookie {
  const [pair = "", ...attributes] = header.split(";");
  const at = pair.indexOf("=");
  return {
    name: pair.slice(0, at).trim(),
    value: pair.slice(at + 1),
    attributes: new Map(
      attributes.map((attribute) => {
        const [name = "", ...value] = attribute.trim().split("=");
        return [name.toLowerCase(), value.join("=")];
      }),
    ),
  };
}

/**
 * Signs a new account up and in, as a browser on `origin` would (Better Auth and the API refuse a
 * POST from another origin), once remembered and once not: the second also sets Better Auth's
 * dont_remember cookie. Answers every cookie set along the way.
 */
async function signUpAndIn(app: TestApp, origin: string) {
  const user = newUser();
  const post = (path: string, json: unknown) => app.request(path, { method: "POST", headers: { origin }, json });
  const signUp = await post("/api/auth/sign-up/email", { ...user, name: `${user.firstName} ${user.lastName}` });
  expect(signUp.status).toBe(200);
  const signIn = await post("/api/auth/sign-in/email", { email: user.email, password: user.password });
  expect(signIn.status).toBe(200);
  const forgetful = await post("/api/auth/sign-in/email", {
    email: user.email,
    password: user.password,
    rememberMe: false,
  });
  expect(forgetful.status).toBe(200);
  const cookies = [signUp, signIn, forgetful]
    .flatMap((response) => response.headers.getSetCookie())
    .map(parseSetCookie);
  const session = signIn.headers.getSetCookie().map(parseSetCookie);
  return { cookies, session };
}

const sent = (cookies: SetCookie[]) => cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");

describe("cookies with an https:// PUBLIC_URL", () => {
  it("are named __Secure- and are Secure, HttpOnly, SameSite=Lax, Path=/; the session cookie signs in on the API", async () => {
    const { cookies, session } = await signUpAndIn(secure, HTTPS_ORIGIN);
    expect(new Set(cookies.map((cookie) => cookie.name))).toEqual(
      new Set(["__Secure-better-auth.session_token", "__Secure-better-auth.dont_remember"]),
    );
    for (const cookie of cookies) {
      expect(cookie.attributes.has("secure"), `${cookie.name} Secure`).toBe(true);
      expect(cookie.attributes.has("httponly"), `${cookie.name} HttpOnly`).toBe(true);
      expect(cookie.attributes.get("samesite"), `${cookie.name} SameSite`).toBe("Lax");
      expect(cookie.attributes.get("path"), `${cookie.name} Path`).toBe("/");
    }

    // Signed in by the fast path alone, which must know the cookie's name, not by Better Auth's getSession.
    const getSession = vi.spyOn(secure.auth.api, "getSession");
    try {
      expect((await secure.request("/api/profile", { cookie: sent(session) })).status).toBe(200);
      expect(getSession).not.toHaveBeenCalled();
    } finally {
      getSession.mockRestore();
    }
    // The same value under the unprefixed name is not the session cookie there.
    const [token] = session;
    expect((await secure.request("/api/profile", { cookie: `better-auth.session_token=${token!.value}` })).status).toBe(
      401,
    );
  });

  it("are expired on sign-out under the same name, still Secure, or a browser would keep them", async () => {
    const { session } = await signUpAndIn(secure, HTTPS_ORIGIN);
    const signOut = await secure.request("/api/auth/sign-out", {
      method: "POST",
      headers: { origin: HTTPS_ORIGIN },
      cookie: sent(session),
      json: {},
    });
    expect(signOut.status).toBe(200);
    const expired = signOut.headers
      .getSetCookie()
      .map(parseSetCookie)
      .find((cookie) => cookie.name === "__Secure-better-auth.session_token");
    expect(expired?.value).toBe("");
    expect(expired?.attributes.get("max-age")).toBe("0");
    expect(expired?.attributes.has("secure")).toBe(true);
    expect((await secure.request("/api/profile", { cookie: sent(session) })).status).toBe(401);
  });
});

describe("cookies with an http:// PUBLIC_URL", () => {
  it("have no prefix and no Secure, and are still HttpOnly, SameSite=Lax, Path=/", async () => {
    const { cookies, session } = await signUpAndIn(plain, HTTP_ORIGIN);
    expect(new Set(cookies.map((cookie) => cookie.name))).toEqual(
      new Set(["better-auth.session_token", "better-auth.dont_remember"]),
    );
    for (const cookie of cookies) {
      expect(cookie.attributes.has("secure"), `${cookie.name} Secure`).toBe(false);
      expect(cookie.attributes.has("httponly"), `${cookie.name} HttpOnly`).toBe(true);
      expect(cookie.attributes.get("samesite"), `${cookie.name} SameSite`).toBe("Lax");
      expect(cookie.attributes.get("path"), `${cookie.name} Path`).toBe("/");
    }
    expect((await plain.request("/api/profile", { cookie: sent(session) })).status).toBe(200);
  });
});
