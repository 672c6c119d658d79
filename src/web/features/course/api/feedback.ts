import { queryOptions } from "@tanstack/react-query";
import type { Feedback } from "#course/feedback";
import { api } from "#web/lib/api";

/** GET /api/feedback: the feedback the signed-in learner received, newest first. */
export const myFeedbackQuery = queryOptions({
  queryKey: ["feedback", "mine"],
  queryFn: async () => (await api<{ feedback: Feedback[] }>("/api/feedback")).feedback,
  staleTime: 60_000,
});
