import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReviewInput } from "#server/modules/speaking/speaking.contract";
import { apiClient, call, pathParams } from "#web/lib/api";
import { speakingQueueQueryKey, usersQueryKey } from "#web/lib/query-keys";

/** What learners sent, oldest first (staff). */
export const speakingQueueQuery = queryOptions({
  queryKey: speakingQueueQueryKey,
  queryFn: () => call(apiClient.speaking.queue.$get()),
});

/** A submission's lines beside their models, read when the tutor opens it. */
export function useSubmission(submissionId: string) {
  return useQuery({
    queryKey: [...speakingQueueQueryKey, submissionId],
    queryFn: () => call(apiClient.speaking.submissions[":submissionId"].$get({ param: pathParams({ submissionId }) })),
  });
}

/** Sends a tutor's ratings of a submission; the queue and the learner's struggles are read again. */
export function useReviewSubmission(submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ratings: ReviewInput["ratings"]) =>
      call(
        apiClient.speaking.submissions[":submissionId"].review.$post({
          param: pathParams({ submissionId }),
          json: { ratings },
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: speakingQueueQueryKey });
      void queryClient.invalidateQueries({ queryKey: usersQueryKey });
    },
  });
}
