import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "#web/lib/api";
import { type ProfileResponse, profileQueryKey } from "#web/lib/profile";

export interface ProfileChanges {
  firstName: string;
  lastName: string;
  /** null clears the nickname. */
  nickname: string | null;
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (changes: ProfileChanges) =>
      (await api<ProfileResponse>("/api/profile", { method: "PATCH", body: changes })).profile,
    // The answer is the saved profile: the header's name and initials change without another request.
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey, profile),
  });
}
