import { queryOptions } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { apiClient, call } from "#web/lib/api";
import { myFeedbackQueryKey } from "#web/lib/query-keys";

/** A note a tutor left for the signed-in learner on one day, as the feedback route answers it. */
export type Feedback = InferResponseType<typeof apiClient.feedback.$get, 200>["feedback"][number];

/** The feedback the signed-in learner received, newest first. */
export const myFeedbackQuery = queryOptions({
  queryKey: myFeedbackQueryKey,
  queryFn: async () => (await call(apiClient.feedback.$get())).feedback,
  staleTime: 60_000,
});
