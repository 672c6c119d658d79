import { vi } from "vitest";
import type * as AuthClientModule from "#web/lib/auth-client";

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

/**
 * Two-factor sign-in as the fake server knows it: enabling answers `totpURI` and `backupCodes`;
 * verifyTotp accepts `code`, verifyBackupCode any of `backupCodes`; anything else answers Better
 * Auth's own messages.
 */
export const fakeTwoFactor = {
  secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
  totpURI:
    "otpauth://totp/Jalan:siti%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Jalan&digits=6&period=30",
  backupCodes: ["k3j9d-2mx8q", "p4w7z-c1v6n", "h8t2r-y5u0e"],
  code: "123456",
};

/** The user who passed the password step and still owes the second factor; null when nobody does. */
let awaitingSecondFactor: string | null = null;

/**
 * The next signIn.email answers as Better Auth does for a user with two-factor sign-in on: no
 * session yet, `twoFactorRedirect`. A right code afterwards signs `userId` in.
 */
export function requireSecondFactorOnNextSignIn(userId: string) {
  authClient.signIn.email.mockImplementationOnce(async () => {
    awaitingSecondFactor = userId;
    return { data: { twoFactorRedirect: true, twoFactorMethods: ["totp"] }, error: null } as never;
  });
}

function verified(valid: boolean, message: string) {
  if (!valid) return { data: null, error: { message, status: 401, statusText: "Unauthorized" } };
  if (awaitingSecondFactor) setSession(signedInAs(awaitingSecondFactor));
  awaitingSecondFactor = null;
  return { data: { token: "session-token" }, error: null };
}

export const authClient = {
  signUp: { email: vi.fn(async (_body: Record<string, unknown>) => ok) },
  signIn: { email: vi.fn(async (_body: { email: string; password: string }) => ok) },
  signOut: vi.fn(async () => ok),
  changePassword: vi.fn(async (_body: Record<string, unknown>) => ok),
  requestPasswordReset: vi.fn(async (_body: Record<string, unknown>) => ok),
  resetPassword: vi.fn(async (_body: Record<string, unknown>) => ok),
  twoFactor: {
    enable: vi.fn(async (_body: { password: string }) => ({
      data: { totpURI: fakeTwoFactor.totpURI, backupCodes: [...fakeTwoFactor.backupCodes] },
      error: null,
    })),
    verifyTotp: vi.fn(async ({ code }: { code: string }) => verified(code === fakeTwoFactor.code, "Invalid code")),
    verifyBackupCode: vi.fn(async ({ code }: { code: string }) =>
      verified(fakeTwoFactor.backupCodes.includes(code), "Invalid backup code"),
    ),
    disable: vi.fn(async (_body: { password: string }) => ({ data: { status: true }, error: null })),
  },
};

/** Forgets the calls and the queued answers of the fake client's sign-in and two-factor methods. */
export function resetFakeTwoFactor() {
  awaitingSecondFactor = null;
  authClient.signIn.email.mockReset();
  for (const method of Object.values(authClient.twoFactor)) method.mockReset();
}

const actual = await vi.importActual<typeof AuthClientModule>("#web/lib/auth-client");
export const authErrorOf = actual.authErrorOf;
export const authResultOf = actual.authResultOf;
