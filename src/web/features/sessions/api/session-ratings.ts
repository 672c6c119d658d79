import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiClient, call, pathParams } from "#web/lib/api";
import { bookingsQueryKey, myTutorRatingsQueryKey } from "#web/lib/query-keys";
import { toast } from "#web/lib/toast";

/**
 * The learner rates a session held (1-5 stars, a comment if they like), or changes their rating
 * within a day of giving it; their sessions are read again, with the rating on the card.
 */
export function useRateSession(bookingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { stars: number; comment: string }) =>
      call(
        apiClient.calls[":bookingId"]["session-rating"].$put({
          param: pathParams({ bookingId }),
          json: { stars: input.stars, comment: input.comment.trim() || null },
        }),
      ),
    onSuccess: () => toast({ title: "Thank you: your rating is saved." }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: bookingsQueryKey }),
  });
}

/** How learners rated the signed-in tutor's sessions. */
export function useMyTutorRatings() {
  return useQuery({
    queryKey: myTutorRatingsQueryKey,
    queryFn: () => call(apiClient.calls["session-ratings"].mine.$get()),
  });
}
