/**
 * The review summary's cache key, apart from the fetchers (which bring zod): saving progress refreshes
 * the summary, since a day's phrase cards started add cards to the deck.
 */
export const reviewSummaryQueryKey = ["review", "summary"] as const;
