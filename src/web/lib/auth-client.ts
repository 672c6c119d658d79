import { inferAdditionalFields } from "better-auth/client/plugins";
import { createAuthClient } from "better-auth/react";

/** Better Auth on the same origin; the sign-up form sends the profile's names as user fields. */
export const authClient = createAuthClient({
  basePath: "/api/auth",
  plugins: [
    inferAdditionalFields({
      user: {
        firstName: { type: "string", required: true },
        lastName: { type: "string", required: true },
      },
    }),
  ],
});

interface AuthErrorLike {
  message?: string;
  statusText?: string;
}

/**
 * Waits for a Better Auth call and returns the server's message when it failed, or null when it
 * worked. Better Auth answers errors as values but lets network failures throw; both end up here.
 */
export async function authErrorOf(
  request: Promise<{ error: AuthErrorLike | null }>,
  fallback = "Something went wrong. Please try again.",
): Promise<string | null> {
  try {
    const { error } = await request;
    if (!error) return null;
    return error.message || fallback;
  } catch {
    return "We could not reach the server. Check your connection and try again.";
  }
}
