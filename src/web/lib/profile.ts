import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Profile } from "#server/modules/profile/profile.contract";
import { ApiError, apiClient, call } from "./api";
import { usePrerendering } from "./prerender";
import { profileQueryKey } from "./query-keys";
import { sessionQuery } from "./session";

export type { Profile };

export const profileQuery = queryOptions({
  queryKey: profileQueryKey,
  queryFn: async (): Promise<Profile | null> => {
    try {
      return (await call(apiClient.profile.$get())).profile;
    } catch (error) {
      // A session that ended on the server (expired, revoked, account deleted) reads as signed out.
      if (error instanceof ApiError && error.status === 401) return null;
      throw error;
    }
  },
  staleTime: 60_000,
});

export type ProfileState = { isPending: true; profile: undefined } | { isPending: false; profile: Profile | null };

/**
 * The signed-in user's profile, or null when signed out. The profile is fetched only while the session
 * query holds a session, so anonymous visitors make no request that is bound to fail. A page
 * prerendered at build time knew no session: while the browser hydrates it, the profile reads as
 * pending even when the session has already arrived, so the first render matches the HTML.
 */
export function useProfile(): ProfileState {
  const prerendering = usePrerendering();
  const queryClient = useQueryClient();
  const session = useQuery(sessionQuery);
  const hasSession = session.data != null;
  // Asked again of the cache when a fetch would start: a component whose render began before a
  // sign-out and mounts after it must not fetch the profile of a session that has ended. (This
  // render's hasSession stays in it, so the options of a render without a session still read as
  // disabled, and the session's arrival still starts the fetch.)
  const query = useQuery({
    ...profileQuery,
    enabled: () => hasSession && queryClient.getQueryData(sessionQuery.queryKey) != null,
  });
  if (prerendering || session.isPending) return { isPending: true, profile: undefined };
  if (!hasSession) return { isPending: false, profile: null };
  if (query.isPending) return { isPending: true, profile: undefined };
  return { isPending: false, profile: query.data ?? null };
}
