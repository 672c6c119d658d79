import { describe, expect, it } from "vitest";
import { createTestApp, ORIGIN } from "#tests/test-app";
import { JSON_BODY_LIMIT } from "./arbitraries";
import { expectRefusal, filesUnder, fingerprint, signedInAs } from "./harness";

const t = await createTestApp();
const learner = await signedInAs(t);
const tutor = await signedInAs(t, "Tutor");
const admin = await signedInAs(t, "Admin");

/** What a body that never ends would send: 10 MB, handed over 16 KB at a time as the reader asks. */
const ENDLESS = 10 * 1024 * 1024;
const CHUNK = 16 * 1024;
/** The avatar route's own limit: 1 MB and 16 KB of multipart envelope (profile.routes.ts). */
const AVATAR_LIMIT = 1024 * 1024 + 16 * 1024;

/** A stream of `total` bytes, a JSON object with one long string, that counts how many the server asked for. */
function countingStream(total: number) {
  const counter = { sent: 0 };
  const [head, tail] = [new TextEncoder().encode('{"text":"'), new TextEncoder().encode('"}')];
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (counter.sent >= total) return controller.close();
        const size = Math.min(CHUNK, total - counter.sent);
        const chunk = new Uint8Array(size).fill(0x61);
        if (counter.sent === 0) chunk.set(head);
        if (counter.sent + size === total) chunk.set(tail, size - tail.length);
        counter.sent += size;
        controller.enqueue(chunk);
      },
    },
    // Nothing is read ahead: a byte leaves the stream only when the server reads it.
    { highWaterMark: 0 },
  );
  return { stream, counter };
}

interface Route {
  method: string;
  path: string;
  cookie?: string;
  contentType?: string;
  limit?: number;
}

/** Every write route with a body limit: the API's JSON routes, Better Auth's, and the avatar upload. */
const ROUTES: Route[] = [
  { method: "PATCH", path: "/api/profile", cookie: learner.cookie },
  { method: "PATCH", path: "/api/settings", cookie: learner.cookie },
  { method: "DELETE", path: "/api/account", cookie: learner.cookie },
  { method: "POST", path: "/api/account/sessions/revoke-others", cookie: learner.cookie },
  { method: "POST", path: "/api/account/confirm-password", cookie: learner.cookie },
  { method: "POST", path: "/api/answers", cookie: learner.cookie },
  { method: "POST", path: "/api/contact" },
  { method: "PUT", path: "/api/progress/chapter-1/day-1/story:read-setting", cookie: learner.cookie },
  { method: "PATCH", path: `/api/users/${learner.id}/role`, cookie: admin.cookie },
  { method: "PUT", path: `/api/users/${learner.id}/progress/chapter-1/day-1/story:read-setting`, cookie: tutor.cookie },
  { method: "DELETE", path: `/api/users/${learner.id}/progress`, cookie: tutor.cookie },
  { method: "POST", path: "/api/feedback", cookie: tutor.cookie },
  { method: "POST", path: "/api/voices", cookie: admin.cookie },
  { method: "PATCH", path: `/api/voices/${tutor.id}`, cookie: admin.cookie },
  // A mail client's one-click unsubscribe posts a form, not JSON.
  { method: "POST", path: "/api/reminders/one-click?token=x", contentType: "application/x-www-form-urlencoded" },
  { method: "POST", path: "/api/auth/sign-in/email" },
  { method: "POST", path: "/api/auth/sign-up/email" },
  {
    method: "PUT",
    path: "/api/profile/avatar",
    cookie: learner.cookie,
    contentType: "multipart/form-data; boundary=x",
    limit: AVATAR_LIMIT,
  },
];

function send(route: Route, body: BodyInit, headers: Record<string, string> = {}) {
  return t.request(route.path, {
    method: route.method,
    ...(route.cookie ? { cookie: route.cookie } : {}),
    headers: { "content-type": route.contentType ?? "application/json", origin: ORIGIN, ...headers },
    body,
    duplex: "half",
    clientIp: "203.0.113.7",
  } as RequestInit & { clientIp: string });
}

describe.each(ROUTES)("$method $path refuses an oversized body", (route) => {
  const limit = route.limit ?? JSON_BODY_LIMIT;

  it("with Content-Length: 413 before reading any of it", async () => {
    const before = await fingerprint(t);
    const files = await filesUnder(t.dataDir);
    const { stream, counter } = countingStream(ENDLESS);
    const response = await send(route, stream, { "content-length": String(ENDLESS) });
    await expectRefusal(response, 413);
    expect(counter.sent).toBeLessThanOrEqual(CHUNK);
    expect(await fingerprint(t)).toBe(before);
    expect(await filesUnder(t.dataDir)).toEqual(files);
  });

  it("chunked, without a length: 413 once the limit is passed, the rest never read", async () => {
    const before = await fingerprint(t);
    const files = await filesUnder(t.dataDir);
    const { stream, counter } = countingStream(ENDLESS);
    const response = await send(route, stream);
    await expectRefusal(response, 413);
    expect(counter.sent).toBeGreaterThan(limit);
    expect(counter.sent).toBeLessThanOrEqual(limit + 2 * CHUNK);
    expect(await fingerprint(t)).toBe(before);
    expect(await filesUnder(t.dataDir)).toEqual(files);
  });

  it("a body just under the limit is read: any answer but 413, and no 5xx", async () => {
    const { stream, counter } = countingStream(limit - 1024);
    const response = await send(route, stream);
    expect(response.status).not.toBe(413);
    expect(response.status).toBeLessThan(500);
    expect(counter.sent).toBe(limit - 1024);
  });
});
