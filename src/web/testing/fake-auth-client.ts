import { vi } from "vitest";
import type * as AuthClientModule from "../lib/auth-client";

/**
 * Stands in for Better Auth in component tests (a third party: its network and cookie handling are
 * covered by the server's tests and e2e). The session set here is what the fake API (fake-api.ts)
 * answers at GET /api/auth/get-session, where the app reads it. Tests replace the client through
 * `vi.mock("<path>/lib/auth-client", () => import("<path>/testing/fake-auth-client"))`.
 */
export interface FakeSession {
  data: { user: { id: string; email: string } } | null;
  isPending: boolean;
}

let session: FakeSession = { data: null, isPending: false };

/** Sets the session the server would report from now on; the app sees it on its next session read. */
export function setSession(next: FakeSession) {
  session = next;
}

export function currentSession(): FakeSession {
  return session;
}

export const signedOut: FakeSession = { data: null, isPending: false };
/** The session read never answers, as on a very slow network. */
export const sessionPending: FakeSession = { data: null, isPending: true };
export const signedInAs = (id: string, email = `${id}@example.com`): FakeSession => ({
  data: { user: { id, email } },
  isPending: false,
});

const ok = { data: {}, error: null };

export const authClient = {
  signUp: { email: vi.fn(async (_body: Record<string, unknown>) => ok) },
  signIn: { email: vi.fn(async (_body: { email: string; password: string }) => ok) },
  signOut: vi.fn(async () => ok),
  changePassword: vi.fn(async (_body: Record<string, unknown>) => ok),
  requestPasswordReset: vi.fn(async (_body: Record<string, unknown>) => ok),
  resetPassword: vi.fn(async (_body: Record<string, unknown>) => ok),
};

const actual = await vi.importActual<typeof AuthClientModule>("../lib/auth-client");
export const authErrorOf = actual.authErrorOf;
