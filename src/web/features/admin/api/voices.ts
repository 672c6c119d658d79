import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferRequestType, InferResponseType } from "hono/client";
import { apiClient, call, describeError, pathParams } from "#web/lib/api";
import { voicesQueryKey } from "#web/lib/query-keys";
import { toast, useErrorToast } from "#web/lib/toast";

/** A voice as Admins list it (dates as ISO strings). */
export type VoiceListing = InferResponseType<typeof apiClient.voices.$get, 200>["voices"][number];

/** What a grant sends: the user, their credited name and accent. */
export type VoiceGrant = InferRequestType<typeof apiClient.voices.$post>["json"];

/** Every voice of the course, by user id, for the users table's rows. */
export function useVoices() {
  const query = useQuery({
    queryKey: voicesQueryKey,
    queryFn: async () => new Map((await call(apiClient.voices.$get())).voices.map((voice) => [voice.userId, voice])),
  });
  useErrorToast(query.error, "Error fetching voices", "Could not load the voices.");
  return query;
}

/**
 * Grants a voice or changes one (`change`: the user already is one). The caller keeps its form open on
 * a refusal and shows the server's words; the list is read again on success.
 */
export function useSaveVoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ change, userId, creditedName, accent }: VoiceGrant & { change: boolean }) =>
      change
        ? call(apiClient.voices[":userId"].$patch({ param: pathParams({ userId }), json: { creditedName, accent } }))
        : call(apiClient.voices.$post({ json: { userId, creditedName, accent } })),
    onSuccess: async ({ voice }, { change }) => {
      toast({ title: change ? "Voice updated." : `${voice.creditedName} is now a voice of the course.` });
      await queryClient.invalidateQueries({ queryKey: voicesQueryKey });
    },
  });
}

/** Ends a user's grant as a voice; their standing consent ends with it. */
export function useRevokeVoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => call(apiClient.voices[":userId"].$delete({ param: pathParams({ userId }) })),
    onSuccess: async () => {
      toast({ title: "Voice revoked." });
      await queryClient.invalidateQueries({ queryKey: voicesQueryKey });
    },
    onError: (error) =>
      toast({
        title: "Error revoking the voice",
        description: describeError(error, "Could not revoke the voice."),
        variant: "destructive",
      }),
  });
}
