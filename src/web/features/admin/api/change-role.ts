import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Role } from "#course/roles";
import type { UserPage } from "#course/users";
import { apiClient, call, describeError, pathParams } from "#web/lib/api";
import { usersQueryKey } from "#web/lib/query-keys";
import { toast } from "#web/lib/toast";

/**
 * Changes a user's role (Admin only). Every cached page of users takes the account the server
 * answers with at once, so the table shows the new role whatever a read in flight (a search being
 * typed) brings back first; then the list is read again.
 */
export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      call(apiClient.users[":userId"].role.$patch({ param: pathParams({ userId }), json: { role } })),
    onSuccess: async ({ user }) => {
      toast({ title: "User role has been updated." });
      await queryClient.cancelQueries({ queryKey: usersQueryKey });
      queryClient.setQueriesData<UserPage>({ queryKey: usersQueryKey }, (page) =>
        page && "users" in page
          ? { ...page, users: page.users.map((each) => (each.id === user.id ? user : each)) }
          : page,
      );
      await queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
    onError: (error) =>
      toast({
        title: "Error updating role",
        description: describeError(error, "Could not update the role."),
        variant: "destructive",
      }),
  });
}
