import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { UserPage, UserSummary } from "#server/modules/users/users.contract";
import { apiClient, call } from "#web/lib/api";
import { usersPageQueryKey } from "#web/lib/query-keys";
import { useErrorToast } from "#web/lib/toast";

/** The accounts staff look up: the tutor's learner picker and the admin's users table read the same pages. */

export type { UserPage, UserSummary };

export const USERS_PER_PAGE = 20;

const usersQuery = ({ search = "", page = 1, perPage = USERS_PER_PAGE } = {}) =>
  queryOptions({
    queryKey: usersPageQueryKey({ search, page, perPage }),
    queryFn: () =>
      call(
        apiClient.users.$get({
          query: { page: String(page), perPage: String(perPage), search: search.trim() || undefined },
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Users matching `search`, a page at a time. A failure shows "Error fetching users" with the server's words. */
export function useUsers(options: { search?: string; page?: number; perPage?: number } = {}) {
  const query = useQuery(usersQuery(options));
  useErrorToast(query.error, "Error fetching users", "Could not load the users.");
  return query;
}
