import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { ReviewInput } from "#server/modules/speaking/speaking.contract";
import { API_BASE, apiClient, call, pathParams } from "#web/lib/api";
import { speakingQueueQueryKey, usersQueryKey } from "#web/lib/query-keys";

/** What learners sent, oldest first (staff). */
export const speakingQueueQuery = queryOptions({
  queryKey: speakingQueueQueryKey,
  queryFn: () => call(apiClient.speaking.queue.$get()),
});

/**
 * Reads the queue again whenever it changes on the server, while the component that calls this is
 * mounted: an EventSource on GET /api/speaking/queue/changes, whose each message says something was
 * sent or reviewed (by any tutor, on any instance). Its `open` reads it again too: the first, since a
 * change may have come between the queue's read and the stream's start; a later one (the browser
 * connects again by itself after a drop), since changes meanwhile were not heard. Closed on unmount.
 */
export function useSpeakingQueueChanges() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const changes = new EventSource(API_BASE + apiClient.speaking.queue.changes.$path());
    // Exact: an open submission's lines are read when it is opened, not at every change of the queue.
    const readAgain = () => void queryClient.invalidateQueries({ queryKey: speakingQueueQueryKey, exact: true });
    changes.addEventListener("open", readAgain);
    changes.addEventListener("message", readAgain);
    return () => changes.close();
  }, [queryClient]);
}

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
