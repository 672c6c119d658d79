import { type QueryClient, queryOptions } from "@tanstack/react-query";
import { readAuth } from "./api";
import { sessionQueryKey } from "./query-keys";

/** What Better Auth's get-session answers for a signed-in visitor; null when signed out. */
export interface Session {
  session: { id: string; userId: string; expiresAt: string };
  user: { id: string; email: string };
}

/**
 * Remembered in the browser whenever the session is read, so a prerendered page knows before any of
 * the app loads whether to start the app at once (to show a signed-in visitor's menu) or to wait for
 * the visitor's first interaction (src/web/main.tsx). It is a hint, not a credential.
 */
export const SIGNED_IN_HINT_KEY = "jalan-signed-in";

function rememberSignedIn(signedIn: boolean) {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_HINT_KEY, "1");
    else localStorage.removeItem(SIGNED_IN_HINT_KEY);
  } catch {
    // No storage: the landing page then always waits for an interaction.
  }
}

/**
 * The one source of truth for "is someone signed in". Read with a plain request rather than Better
 * Auth's browser client, so the client (about 10 KB gzip) loads only with the forms that sign in,
 * sign up, sign out or change a password. A signed-out visitor gets 200 with null, not an error.
 */
export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: async () => {
    const session = (await readAuth<Session | null>("/get-session")) ?? null;
    rememberSignedIn(session !== null);
    return session;
  },
  staleTime: 60_000,
});

const isSessionQuery = (query: { queryKey: readonly unknown[] }) => query.queryKey[0] === sessionQueryKey[0];

/**
 * After a sign-in: forget whatever an earlier user left in the cache, then wait for the new session,
 * so a guarded page opened next sees "signed in" rather than a stale "signed out".
 */
export async function sessionStarted(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (query) => !isSessionQuery(query) });
  await queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 });
}

/** After a sign-out: signed out at once everywhere, and nothing of the user lingers in the cache. */
export function sessionEnded(queryClient: QueryClient) {
  rememberSignedIn(false);
  queryClient.setQueryData(sessionQueryKey, null);
  queryClient.removeQueries({ predicate: (query) => !isSessionQuery(query) });
}
