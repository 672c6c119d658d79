import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { apiClient, call, describeError } from "#web/lib/api";
import { myVoiceQueryKey } from "#web/lib/query-keys";
import { toast } from "#web/lib/toast";

/** The voice's grant and consent as the server answers them (dates as ISO strings). */
export type MyVoiceAnswer = InferResponseType<typeof apiClient.voices.me.$get, 200>;

/**
 * The signed-in user's grant as a voice of the course and their consent. Asked only for staff
 * (`enabled`): a learner is never a voice, and the server would refuse them.
 */
export function useMyVoice(enabled: boolean) {
  return useQuery({
    queryKey: myVoiceQueryKey,
    queryFn: () => call(apiClient.voices.me.$get()),
    enabled,
  });
}

/** Gives or withdraws the consent; the section then shows what the server answered. */
export function useVoiceConsent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (give: boolean) =>
      call(give ? apiClient.voices.me.consent.$post() : apiClient.voices.me.consent.$delete()),
    onSuccess: (answer, give) => {
      queryClient.setQueryData(myVoiceQueryKey, answer);
      toast({
        title: give ? "Consent given" : "Consent withdrawn",
        description: give
          ? "Thank you: your recordings may now be used in the course."
          : "Your recordings are no longer used in the course: the synthetic voice takes their place.",
      });
    },
    onError: (error, give) =>
      toast({
        title: give ? "Could not give your consent" : "Could not withdraw your consent",
        description: describeError(error, "Please try again."),
        variant: "destructive",
      }),
  });
}
