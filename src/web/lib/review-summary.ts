import { queryOptions } from "@tanstack/react-query";
import "#web/lib/zod-without-eval";
import { reviewSummarySchema } from "#server/modules/review/review.contract";
import { apiClient, call } from "#web/lib/api";
import { reviewSummaryQueryKey } from "#web/lib/query-keys";
import { deviceTimeZone } from "#web/lib/time-zone";

/**
 * Where the learner is now, for the review's "today"; the account's zone when the browser does not
 * say. Every read of the review and every answer sends it.
 */
export const whereTheDeviceIs = () => ({ timeZone: deviceTimeZone() });

/**
 * The signed-in learner's review summary (due count, today's goal, streak). The header's count, My
 * Journey's review panel and the review page read it; its schema brings zod, so only code loaded
 * after first paint imports this file.
 */
export const reviewSummaryQuery = queryOptions({
  queryKey: reviewSummaryQueryKey,
  queryFn: async () =>
    reviewSummarySchema.parse(await call(apiClient.review.summary.$get({ query: whereTheDeviceIs() }))),
  staleTime: 60_000,
});
