import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType } from "hono/client";
import { apiClient, call } from "#web/lib/api";
import { profileQueryKey } from "#web/lib/query-keys";

/** The names a profile change sends; a null nickname clears it. */
type ProfileChanges = InferRequestType<typeof apiClient.profile.$patch>["json"];

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: ProfileChanges) => (await call(apiClient.profile.$patch({ json: changes }))).profile,
    // The answer is the saved profile: the header's name and initials change without another request.
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey, profile),
  });
}
