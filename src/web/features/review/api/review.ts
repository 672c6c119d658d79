import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import "#web/lib/zod-without-eval";
import type { Given } from "#course/exercise-schema";
import {
  hardestCardsPath,
  hardestCardsSchema,
  type PinResponse,
  REVIEW_ANSWERS_PATH,
  REVIEW_PATH,
  REVIEW_SUMMARY_PATH,
  type ReviewAnswerResponse,
  type ReviewSummary,
  reviewAnswerResponseSchema,
  reviewPinsPath,
  reviewRoundSchema,
  reviewSummarySchema,
  struggleReportPath,
  struggleReportSchema,
  UNSUBSCRIBE_PATH,
} from "#course/review-contract";
import { api } from "#web/lib/api";

/**
 * The review API (src/course/review-contract.ts) for the web app. "Today" is counted where the
 * device is: every read and answer sends the device's time zone.
 */

/** The device's time zone (an IANA name), or undefined when the browser does not say. */
export function deviceTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

const withTimeZone = (path: string) => {
  const zone = deviceTimeZone();
  return zone ? `${path}?${new URLSearchParams({ timeZone: zone })}` : path;
};

import { reviewSummaryQueryKey } from "./keys";

export { reviewSummaryQueryKey };

/** GET /api/review/summary: due count, today's goal, streak. Signed-in users only. */
export const reviewSummaryQuery = queryOptions({
  queryKey: reviewSummaryQueryKey,
  queryFn: async () => reviewSummarySchema.parse(await api(withTimeZone(REVIEW_SUMMARY_PATH))),
  staleTime: 60_000,
});

export function useReviewSummary(enabled: boolean) {
  return useQuery({ ...reviewSummaryQuery, enabled });
}

/** GET /api/review: the summary and the next round of due cards. Read afresh each time it is asked for. */
export const reviewRoundQuery = queryOptions({
  queryKey: ["review", "round"] as const,
  queryFn: async () => reviewRoundSchema.parse(await api(withTimeZone(REVIEW_PATH))),
  staleTime: 0,
  gcTime: 0,
});

/** GET /api/review/hardest/:chapterId: a review day's warm-up of the chapter's hardest cards. */
export const hardestCardsQuery = (chapterId: string) =>
  queryOptions({
    queryKey: ["review", "hardest", chapterId] as const,
    queryFn: async () => hardestCardsSchema.parse(await api(hardestCardsPath(chapterId))),
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
 * POST /api/review/answers. Each review gets its own clientId, and a retry of the same answer after a
 * failure sends it again with the same id and time, so the server logs it once. The cached summary
 * takes the one the server answers with.
 */
export function useReviewAnswer() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async (sent: SentReview & { reviewedAt: string }): Promise<ReviewAnswerResponse> =>
      reviewAnswerResponseSchema.parse(
        await api(REVIEW_ANSWERS_PATH, { method: "POST", body: { ...sent, timeZone: deviceTimeZone() } }),
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

/** GET /api/users/:userId/review (staff): the learner's weakest phrases, due count, streak, last activity. */
export const struggleReportQuery = (userId: string) =>
  queryOptions({
    queryKey: ["review", "struggles", userId] as const,
    queryFn: async () => struggleReportSchema.parse(await api(struggleReportPath(userId))),
  });

export function useStruggleReport(userId: string | undefined) {
  return useQuery({ ...struggleReportQuery(userId ?? ""), enabled: userId !== undefined && userId !== "" });
}

/** POST /api/users/:userId/review/pins (staff): pins a phrase into the learner's review. */
export function usePinPhrase(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (phrase: { chapterId: string; dayId: string; phraseId: string }) =>
      api<PinResponse>(reviewPinsPath(userId), {
        method: "POST",
        body: phrase,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: struggleReportQuery(userId).queryKey }),
  });
}

/** POST /api/reminders/unsubscribe: the reminder email's link turns email notifications off. */
export function useUnsubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) =>
      api<{ emailNotifications: false }>(UNSUBSCRIBE_PATH, { method: "POST", body: { token } }),
    // A signed-in learner's Settings show the switch off at once.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["settings"] }),
  });
}
