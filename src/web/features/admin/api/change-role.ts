import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Role } from "#course/roles";
import { apiClient, call, describeError, pathParams } from "#web/lib/api";
import { usersQueryKey } from "#web/lib/query-keys";
import { toast } from "#web/lib/toast";

/** Changes a user's role (Admin only), then the list is read again. */
export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      call(apiClient.users[":userId"].role.$patch({ param: pathParams({ userId }), json: { role } })),
    onSuccess: async () => {
      toast({ title: "User role has been updated." });
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
