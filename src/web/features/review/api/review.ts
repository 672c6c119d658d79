import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewGiven } from "#course/review-items";
import type { ReviewAnswerResponse, ReviewSummary } from "#server/modules/review/review.contract";
import { summaryAfterAnswer } from "#web/features/review/summary-after-answer";
import { apiClient, call, pathParams } from "#web/lib/api";
import { sendNowOrKeep } from "#web/lib/offline/send-now-or-keep";
import {
  hardestCardsQueryKey,
  reviewRoundQueryKey,
  reviewSummaryQueryKey,
  settingsQueryKey,
  speakingDayQueryKey,
} from "#web/lib/query-keys";
import { whereTheDeviceIs } from "#web/lib/review-summary";

/**
 * The review API (src/server/modules/review/review.contract.ts) for the web app. "Today" is counted
 * where the device is: every read and answer sends the device's time zone. Answers are read as their
 * routes type them (times stay ISO strings), like every other answer: the contract's schemas would
 * bring zod into the review page.
 */

/** The summary and the next round of due cards. Read afresh each time it is asked for. */
export const reviewRoundQuery = queryOptions({
  queryKey: reviewRoundQueryKey,
  queryFn: () => call(apiClient.review.$get({ query: whereTheDeviceIs() })),
  staleTime: 0,
  gcTime: 0,
});

/** A review day's warm-up: the chapter's cards the learner found hardest. */
export const hardestCardsQuery = (chapterId: string) =>
  queryOptions({
    queryKey: hardestCardsQueryKey(chapterId),
    queryFn: () => call(apiClient.review.hardest[":chapterId"].$get({ param: pathParams({ chapterId }) })),
    staleTime: 0,
  });

export interface ReviewAnswer {
  cardId: string;
  given: ReviewGiven;
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
 * moves on by what the answer says (summaryAfterAnswer).
 */
export function useReviewAnswer() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (sent: SentReview & { reviewedAt: string }): Promise<ReviewAnswerResponse> => {
      // Its reviewedAt goes with it: kept and sent later, it counts on the day it was answered.
      const json = { ...sent, ...whereTheDeviceIs() };
      const request = { method: "POST" as const, path: "/review/answers", body: json };
      const submission = { kind: "review" as const, label: "Your review of a card", request, clientId: sent.clientId };
      return sendNowOrKeep(submission, () => call(apiClient.review.answers.$post({ json })));
    },
    onSuccess: (response) =>
      queryClient.setQueryData<ReviewSummary>(
        reviewSummaryQueryKey,
        (summary) => summary && summaryAfterAnswer(summary, response),
      ),
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

/** The line a tutor heard, as a pinned spoken card names it: a new take of it may be sent to a tutor. */
export interface HeardLine {
  chapterId: string;
  dayId: string;
  lineId: string;
}

/**
 * Sends a take recorded in review to a tutor with the speaking API: uploaded as the line's latest
 * take (POST /api/speaking/takes), then sent (POST /api/speaking/days/:chapterId/:dayId/sent). The
 * line's day shows it as sent.
 */
export function useSendTakeToTutor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ line, take }: { line: HeardLine; take: File }) => {
      const { chapterId, dayId, lineId } = line;
      await call(apiClient.speaking.takes.$post({ form: { chapterId, dayId, lineId, take } }));
      return call(
        apiClient.speaking.days[":chapterId"][":dayId"].sent.$post({
          param: pathParams({ chapterId, dayId }),
          json: { lineIds: [lineId] },
        }),
      );
    },
    onSuccess: (_, { line }) =>
      queryClient.invalidateQueries({ queryKey: speakingDayQueryKey(line.chapterId, line.dayId) }),
  });
}
