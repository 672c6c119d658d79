import { useSyncExternalStore } from "react";
import { vi } from "vitest";
import type * as AuthClientModule from "../lib/auth-client";

/**
 * Stands in for Better Auth's browser client in component tests (a third party: its network and
 * cookie handling are covered by the server's tests and e2e). Tests use it through
 * `vi.mock("<path>/lib/auth-client", () => import("<path>/testing/fake-auth-client"))`.
 */
interface FakeSession {
  data: { user: { id: string; email: string } } | null;
  isPending: boolean;
}

let session: FakeSession = { data: null, isPending: false };
const listeners = new Set<() => void>();

export function setSession(next: FakeSession) {
  session = next;
  for (const listener of listeners) listener();
}

export const signedOut: FakeSession = { data: null, isPending: false };
export const sessionPending: FakeSession = { data: null, isPending: true };
export const signedInAs = (id: string, email = `${id}@example.com`): FakeSession => ({
  data: { user: { id, email } },
  isPending: false,
});

const ok = { data: {}, error: null };

export const authClient = {
  useSession() {
    const current = useSyncExternalStore(
      (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      () => session,
    );
    return { ...current, error: null, refetch: async () => {} };
  },
  signUp: { email: vi.fn(async (_body: Record<string, unknown>) => ok) },
  signIn: { email: vi.fn(async (_body: { email: string; password: string }) => ok) },
  signOut: vi.fn(async () => ok),
  changePassword: vi.fn(async (_body: Record<string, unknown>) => ok),
  requestPasswordReset: vi.fn(async (_body: Record<string, unknown>) => ok),
  resetPassword: vi.fn(async (_body: Record<string, unknown>) => ok),
};

const actual = await vi.importActual<typeof AuthClientModule>("../lib/auth-client");
export const authErrorOf = actual.authErrorOf;
