import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import "#web/lib/zod-without-eval";
import type { Given } from "#course/exercise-schema";
import {
  hardestCardsSchema,
  type ReviewAnswerResponse,
  type ReviewSummary,
  reviewAnswerResponseSchema,
  reviewRoundSchema,
} from "#server/modules/review/review.contract";
import { apiClient, call, pathParams } from "#web/lib/api";
import {
  hardestCardsQueryKey,
  reviewRoundQueryKey,
  reviewSummaryQueryKey,
  settingsQueryKey,
} from "#web/lib/query-keys";
import { whereTheDeviceIs } from "#web/lib/review-summary";

/**
 * The review API (src/server/modules/review/review.contract.ts) for the web app. "Today" is counted
 * where the device is: every read and answer sends the device's time zone. Each answer is parsed
 * with the contract's schema, as the server's times arrive as text.
 */

/** The summary and the next round of due cards. Read afresh each time it is asked for. */
export const reviewRoundQuery = queryOptions({
  queryKey: reviewRoundQueryKey,
  queryFn: async () => reviewRoundSchema.parse(await call(apiClient.review.$get({ query: whereTheDeviceIs() }))),
  staleTime: 0,
  gcTime: 0,
});

/** A review day's warm-up: the chapter's cards the learner found hardest. */
export const hardestCardsQuery = (chapterId: string) =>
  queryOptions({
    queryKey: hardestCardsQueryKey(chapterId),
    queryFn: async () =>
      hardestCardsSchema.parse(
        await call(apiClient.review.hardest[":chapterId"].$get({ param: pathParams({ chapterId }) })),
      ),
    staleTime: 0,
  });

export interface ReviewAnswer {
  cardId: string;
  given: Given;
  durationMs: number;
  hinted?: boolean;
  easy?: boolean;
}

interface SentReview extends ReviewAnswer {
  clientId: string;
}

const sameReview = (sent: SentReview | undefined, answer: ReviewAnswer) =>
  sent?.cardId === answer.cardId && JSON.stringify(sent.given) === JSON.stringify(answer.given);

/**
 * Sends a review. Each review gets its own clientId, and a retry of the same answer after a
 * failure sends it again with the same id and time, so the server logs it once. The cached summary
 * takes the one the server answers with.
 */
export function useReviewAnswer() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async (sent: SentReview & { reviewedAt: string }): Promise<ReviewAnswerResponse> =>
      reviewAnswerResponseSchema.parse(
        await call(apiClient.review.answers.$post({ json: { ...sent, ...whereTheDeviceIs() } })),
      ),
    onSuccess: (response) => queryClient.setQueryData<ReviewSummary>(reviewSummaryQueryKey, response.summary),
  });
  const failed = mutation.isError ? mutation.variables : undefined;
  const answer = (review: ReviewAnswer) =>
    mutation.mutateAsync(
      sameReview(failed, review)
        ? failed!
        : { ...review, clientId: crypto.randomUUID(), reviewedAt: new Date().toISOString() },
    );
  return { answer, isPending: mutation.isPending };
}

/** The reminder email's unsubscribe link turns email notifications off (the reminders module's route). */
export function useUnsubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => call(apiClient.reminders.unsubscribe.$post({ json: { token } })),
    // A signed-in learner's Settings show the switch off at once.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsQueryKey }),
  });
}
