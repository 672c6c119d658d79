import { useEffect, useState } from "react";
import { staffName } from "#course/account-rules";
import { Button } from "#web/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "#web/components/ui/card";
import { Field } from "#web/components/ui/field";
import { useVoices } from "#web/features/admin/api/voices";
import { USERS_PER_PAGE, useUsers } from "#web/lib/users";
import { RoleSelect } from "./role-select";
import { VoiceCell } from "./voice-cell";

/** How long typing must pause before the search is sent: one request per word, not per key. */
export const SEARCH_DELAY_MS = 300;

/**
 * Every account, a page at a time, searchable, with each user's role changeable in place and, for
 * staff, their grant as a voice of the course (shown once the voices are read).
 */
export function UsersTable() {
  const [searchText, setSearchText] = useState("");
  // Search and page change together: a new search starts again at its first page.
  const [query, setQuery] = useState({ search: "", page: 1 });

  useEffect(() => {
    const search = searchText.trim();
    const timer = setTimeout(
      () => setQuery((current) => (current.search === search ? current : { search, page: 1 })),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [searchText]);

  const users = useUsers({ ...query, perPage: USERS_PER_PAGE });
  const voices = useVoices();
  const data = users.data;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / data.perPage)) : 1;
  const setPage = (page: number) => setQuery((current) => ({ ...current, page }));

  return (
    <Card aria-labelledby="users-heading" role="region">
      <CardHeader>
        <CardTitle id="users-heading">Users</CardTitle>
        <CardDescription>Everyone with an account. A role decides who can open the staff pages.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <Field
          label="Search users"
          type="search"
          placeholder="Name or email"
          autoComplete="off"
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
          className="max-w-sm"
        />
        {users.isPending ? (
          <p role="status" className="text-muted-foreground">
            Loading users…
          </p>
        ) : !data ? (
          <div className="grid justify-items-start gap-3">
            <p>The users could not be loaded.</p>
            <Button variant="outline" onClick={() => users.refetch()} disabled={users.isFetching}>
              Try again
            </Button>
          </div>
        ) : data.users.length === 0 ? (
          <p className="text-muted-foreground">No users match your search.</p>
        ) : (
          <>
            <div className="overflow-x-auto">
              <table
                aria-labelledby="users-heading"
                aria-busy={users.isPlaceholderData || undefined}
                className="w-full text-left text-sm"
              >
                <thead className="border-b text-muted-foreground">
                  <tr>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      User
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Email
                    </th>
                    <th scope="col" className="py-2 pr-3 font-medium">
                      Role
                    </th>
                    <th scope="col" className="py-2 font-medium">
                      Voice
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.users.map((user) => (
                    <tr key={user.id} className="border-b last:border-b-0">
                      <td className="py-2 pr-3 font-medium break-words">{staffName(user)}</td>
                      <td className="py-2 pr-3 break-all">{user.email}</td>
                      <td className="py-2 pr-3">
                        <RoleSelect user={user} />
                      </td>
                      <td className="py-2">
                        {voices.data && <VoiceCell user={user} voice={voices.data.get(user.id)} />}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <nav aria-label="User pages" className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-muted-foreground" aria-live="polite">
                Page {data.page} of {pageCount} · {data.total} {data.total === 1 ? "user" : "users"}
              </p>
              <div className="flex gap-2">
                <Button variant="outline" size="sm" disabled={query.page <= 1} onClick={() => setPage(query.page - 1)}>
                  Previous
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  disabled={users.isPlaceholderData || query.page >= pageCount}
                  onClick={() => setPage(query.page + 1)}
                >
                  Next
                </Button>
              </div>
            </nav>
          </>
        )}
      </CardContent>
    </Card>
  );
}
