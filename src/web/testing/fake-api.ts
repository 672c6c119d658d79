import { vi } from "vitest";
import type { Profile } from "#web/lib/profile";
import { currentSession } from "./fake-auth-client";

export function makeProfile(overrides: Partial<Profile> = {}): Profile {
  return {
    id: "user-1",
    email: "siti@example.com",
    firstName: "Siti",
    lastName: "Nurhaliza",
    nickname: null,
    role: "Student",
    avatar: null,
    ...overrides,
  };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

type Handler = (request: { method: string; path: string; body: unknown }) => Response | undefined;

/**
 * Replaces fetch with an in-memory API: GET /api/auth/get-session answers the fake session
 * (fake-auth-client.ts; never, while it is pending), GET /api/profile answers `profile` (401 when
 * null), GET /api/feedback an empty list; other calls go to `handler` first. Returns the fetch mock so tests can inspect the requests.
 */
export function stubApi(profile: Profile | null, handler: Handler = () => undefined) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    const method = init.method ?? "GET";
    const body = typeof init.body === "string" ? JSON.parse(init.body) : init.body;
    const answer = handler({ method, path, body });
    if (answer) return answer;
    if (method === "GET" && path === "/api/auth/get-session") {
      const session = currentSession();
      if (session.isPending) return new Promise<Response>(() => {});
      return json(200, session.data && { session: { id: "session-1", userId: session.data.user.id }, ...session.data });
    }
    if (method === "GET" && path === "/api/profile") {
      return profile
        ? json(200, { profile })
        : json(401, { error: { code: "UNAUTHORIZED", message: "Please sign in to continue." } });
    }
    // A signed-in learner's pages ask for the feedback they received; by default there is none.
    if (method === "GET" && path === "/api/feedback") {
      return profile ? json(200, { feedback: [] }) : json(401, { error: { code: "UNAUTHORIZED", message: "" } });
    }
    return json(404, { error: { code: "NOT_FOUND", message: `No API route ${method} ${path}.` } });
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

export { json };
