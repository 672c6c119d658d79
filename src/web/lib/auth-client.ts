import { inferAdditionalFields, twoFactorClient } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";
import { AUTH_BASE } from "./api";

/**
 * Better Auth on the same origin; the sign-up form sends the profile's names and the device's time zone
 * as user fields.
 * twoFactorClient gets neither `twoFactorPage` nor `onTwoFactorRedirect`, so it never moves the page
 * by itself: the sign-in form reads `data.twoFactorRedirect` and asks for the code in place.
 */
export const authClient = createAuthClient({
  basePath: AUTH_BASE,
  plugins: [
    inferAdditionalFields({
      user: {
        firstName: { type: "string", required: true },
        lastName: { type: "string", required: true },
        timeZone: { type: "string", required: false },
      },
    }),
    twoFactorClient(),
  ],
});

interface AuthErrorLike {
  message?: string;
  statusText?: string;
}

const DEFAULT_FAILURE = "Something went wrong. Please try again.";
const UNREACHABLE = "We could not reach the server. Check your connection and try again.";

/**
 * Waits for a Better Auth call and returns the server's message when it failed, or null when it
 * worked. Better Auth answers errors as values but lets network failures throw; both end up here.
 */
export async function authErrorOf(
  request: Promise<{ error: AuthErrorLike | null }>,
  fallback = DEFAULT_FAILURE,
): Promise<string | null> {
  try {
    const { error } = await request;
    if (!error) return null;
    return error.message || fallback;
  } catch {
    return UNREACHABLE;
  }
}

/** What a Better Auth call came to: its answer, or the message to show when it failed. */
export type AuthResult<T> = { data: T; error: null } | { data: null; error: string };

/** Like authErrorOf, for calls whose answer the caller needs too. */
export async function authResultOf<T>(
  request: Promise<{ data: T | null; error: AuthErrorLike | null }>,
  fallback = DEFAULT_FAILURE,
): Promise<AuthResult<T>> {
  try {
    const { data, error } = await request;
    if (error || data === null) return { data: null, error: error?.message || fallback };
    return { data, error: null };
  } catch {
    return { data: null, error: UNREACHABLE };
  }
}
