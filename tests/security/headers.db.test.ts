import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { cookieFrom, createTestApp, newUser, type TestApp } from "#tests/test-app";

// A built web app in miniature: a prerendered page, the app shell and a course media file.
const webRoot = await mkdtemp(path.join(os.tmpdir(), "jalan-web-headers-"));
await writeFile(
  path.join(webRoot, "index.html"),
  '<!doctype html><title>Jalan</title><script src="/theme-init.js"></script><div id=root><h1>Landing</h1></div>',
);
await writeFile(path.join(webRoot, "app.html"), "<!doctype html><title>Jalan</title><div id=root></div>");
await mkdir(path.join(webRoot, "media", "course"), { recursive: true });
await writeFile(path.join(webRoot, "media", "course", "kopi.mp3"), Buffer.from([0xff, 0xfb, 0x90, 0x44, 0, 0, 0, 0]));

const HTTPS_ORIGIN = "https://jalan.example";
const plain = await createTestApp({}, { webRoot });
const secure = await createTestApp({ PUBLIC_URL: HTTPS_ORIGIN }, { webRoot });

/** The Content-Security-Policy as directive -> sources. */
function cspOf(response: Response): Map<string, string[]> {
  const header = response.headers.get("content-security-policy");
  expect(header, "Content-Security-Policy").toBeTruthy();
  return new Map(
    header!
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

function expectProtectiveHeaders(response: Response) {
  const csp = cspOf(response);
  expect(csp.get("object-src")).toEqual(["'none'"]);
  expect(csp.get("base-uri")).toEqual(["'none'"]);
  expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
  // Scripts only from our own files: no inline script, no eval, no other host.
  expect(csp.get("script-src")).toEqual(["'self'"]);
  expect(csp.get("default-src")).toEqual(["'self'"]);
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  expect(response.headers.get("x-frame-options")).toBe("DENY");
}

/** A signed-in learner of `t`, whose requests come from `origin` (the app refuses other origins). */
async function signedIn(t: TestApp, origin: string): Promise<string> {
  const user = newUser();
  const headers = { origin };
  const signUp = await t.request("/api/auth/sign-up/email", {
    method: "POST",
    headers,
    json: { ...user, name: `${user.firstName} ${user.lastName}` },
  });
  expect(signUp.status).toBe(200);
  const signIn = await t.request("/api/auth/sign-in/email", {
    method: "POST",
    headers,
    json: { email: user.email, password: user.password },
  });
  expect(signIn.status).toBe(200);
  return cookieFrom(signIn);
}

/** The three kinds of answer the issue names: a page, an authenticated API answer, a media file. */
async function answersOf(t: TestApp, cookie: string) {
  return {
    "prerendered page": await t.request("/"),
    "app page": await t.request("/progress"),
    "authenticated API answer": await t.request("/api/progress", { cookie }),
    "media file": await t.request("/media/course/kopi.mp3?v=Ab12Cd34Ef"),
  };
}

describe("security headers", () => {
  it("protect a page, an authenticated API answer and a media file", async () => {
    const cookie = await signedIn(plain, plain.env.PUBLIC_URL);
    for (const [kind, response] of Object.entries(await answersOf(plain, cookie))) {
      expect(response.status, kind).toBe(200);
      expectProtectiveHeaders(response);
    }
  });

  it("forbid caching of authenticated JSON, and of every other API answer", async () => {
    const cookie = await signedIn(plain, plain.env.PUBLIC_URL);
    const progress = await plain.request("/api/progress", { cookie });
    expect(progress.status).toBe(200);
    expect(progress.headers.get("content-type")).toContain("application/json");
    expect(progress.headers.get("cache-control")).toBe("no-store");
    for (const [pathname, status] of [
      ["/api/profile", 200],
      ["/api/auth/get-session", 200],
      ["/api/settings", 200],
    ] as const) {
      const response = await plain.request(pathname, { cookie });
      expect(response.status, pathname).toBe(status);
      expect(response.headers.get("cache-control"), pathname).toBe("no-store");
    }
    const signedOut = await plain.request("/api/progress");
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("cache-control")).toBe("no-store");
  });

  it("send HSTS on every answer when the public URL is https, and never over plain http", async () => {
    const secureCookie = await signedIn(secure, HTTPS_ORIGIN);
    for (const [kind, response] of Object.entries(await answersOf(secure, secureCookie))) {
      expect(response.status, kind).toBe(200);
      expect(response.headers.get("strict-transport-security"), kind).toBe("max-age=31536000; includeSubDomains");
      expectProtectiveHeaders(response);
    }
    const plainCookie = await signedIn(plain, plain.env.PUBLIC_URL);
    for (const [kind, response] of Object.entries(await answersOf(plain, plainCookie))) {
      expect(response.headers.get("strict-transport-security"), kind).toBeNull();
    }
  });

  it("serve uploaded avatars under a policy that runs nothing at all, never sniffed or framed", async () => {
    const cookie = await signedIn(plain, plain.env.PUBLIC_URL);
    const form = new FormData();
    const png = await sharp({ create: { width: 120, height: 120, channels: 3, background: "#0f766e" } })
      .png()
      .toBuffer();
    form.set("avatar", new File([new Uint8Array(png)], "me.png", { type: "image/png" }));
    const uploaded = await plain.request("/api/profile/avatar", { method: "PUT", cookie, body: form });
    expect(uploaded.status).toBe(200);
    const image = await plain.request((await uploaded.json()).profile.avatar.small);
    expect(image.status).toBe(200);
    // Read from PostgreSQL, sent whole: its own type and length, cached for good under its hashed name.
    expect(image.headers.get("content-type")).toBe("image/webp");
    expect(image.headers.get("content-length")).toBe(String((await image.clone().arrayBuffer()).byteLength));
    expect(image.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const csp = cspOf(image);
    // default-src 'none' covers object-src and script-src; sandbox stops the file acting as a page.
    expect(csp.get("default-src")).toEqual(["'none'"]);
    expect(csp.has("sandbox")).toBe(true);
    expect(image.headers.get("x-content-type-options")).toBe("nosniff");
    expect(image.headers.get("x-frame-options")).toBe("DENY");
    expect(image.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("keep the page template free of inline script, which the policy would block", async () => {
    const template = await readFile(path.resolve("index.html"), "utf8");
    const scripts = [...template.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes, "every script is a file").toMatch(/\bsrc=/);
      expect(body!.trim()).toBe("");
    }
  });
});
