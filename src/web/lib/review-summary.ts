import { queryOptions } from "@tanstack/react-query";
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
 * Journey's review panel and the review page read it on every page a learner opens, so it is read
 * as the route types it (the contract's ReviewSummary, times as ISO strings), like every other
 * answer: parsing it with the contract's schema would bring zod into every page.
 */
export const reviewSummaryQuery = queryOptions({
  queryKey: reviewSummaryQueryKey,
  queryFn: () => call(apiClient.review.summary.$get({ query: whereTheDeviceIs() })),
  staleTime: 60_000,
});
