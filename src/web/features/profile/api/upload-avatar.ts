import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "#web/lib/api";
import { type ProfileResponse, profileQueryKey } from "#web/lib/profile";

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const body = new FormData();
      body.append("avatar", file);
      return (await api<ProfileResponse>("/api/profile/avatar", { method: "PUT", body })).profile;
    },
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey, profile),
  });
}
