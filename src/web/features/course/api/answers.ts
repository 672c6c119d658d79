import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import "#web/lib/zod-without-eval";
import {
  ANSWERS_PATH,
  type AnswerResponse,
  answerResponseSchema,
  practiceProgressPath,
  practiceProgressSchema,
} from "#course/answers-contract";
import type { Given } from "#course/exercise-schema";
import { api } from "#web/lib/api";
import { progressQueryKey, type TaskRef } from "./progress";

/** GET /api/answers/…: the items of a practice set the signed-in learner has answered right, to resume it. */
export const practiceProgressQuery = (chapterId: string, dayId: string, taskId: string) =>
  queryOptions({
    queryKey: ["practice-progress", chapterId, dayId, taskId],
    queryFn: async () => practiceProgressSchema.parse(await api(practiceProgressPath(chapterId, dayId, taskId))),
  });

interface SentAnswer {
  clientId: string;
  itemId: string;
  given: Given;
}

const sameAnswer = (sent: SentAnswer | undefined, itemId: string, given: Given) =>
  sent?.itemId === itemId && JSON.stringify(sent.given) === JSON.stringify(given);

/**
 * POST /api/answers for one practice set: the server grades and stores the answer. Each answer gets
 * its own clientId, and a retry of the same answer after a failure sends it again, so the server
 * stores it once however many sends reached it (decision 032). When an answer completes the set's
 * task, the cached progress is refreshed so the Codebook shows the mission completed.
 */
export function useAnswer(task: TaskRef) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: async (sent: SentAnswer): Promise<AnswerResponse> =>
      answerResponseSchema.parse(await api(ANSWERS_PATH, { method: "POST", body: { ...task, ...sent } })),
    onSuccess: (response) => {
      const { chapterId, dayId, taskId } = task;
      // Read again when the set is next opened, not now: this run already knows what it answered.
      void queryClient.invalidateQueries({
        queryKey: practiceProgressQuery(chapterId, dayId, taskId).queryKey,
        refetchType: "none",
      });
      if (response.taskCompleted) void queryClient.invalidateQueries({ queryKey: progressQueryKey });
    },
  });
  const failed = mutation.isError ? mutation.variables : undefined;
  const answer = (itemId: string, given: Given) =>
    mutation.mutateAsync({
      clientId: sameAnswer(failed, itemId, given) ? failed!.clientId : crypto.randomUUID(),
      itemId,
      given,
    });
  return { answer, isPending: mutation.isPending };
}
