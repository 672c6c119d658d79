import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiClient, call } from "#web/lib/api";
import { profileQueryKey } from "#web/lib/query-keys";

export function useUploadAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (avatar: File) => (await call(apiClient.profile.avatar.$put({ form: { avatar } }))).profile,
    onSuccess: (profile) => queryClient.setQueryData(profileQueryKey, profile),
  });
}
