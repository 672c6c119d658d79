import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { Given } from "#course/exercise-schema";
import type { AnswerResponse } from "#server/modules/answers/answers.contract";
import { apiClient, call, pathParams } from "#web/lib/api";
import { sendNowOrKeep } from "#web/lib/offline/send-now-or-keep";
import { practiceProgressQueryKey, progressQueryKey } from "#web/lib/query-keys";
import type { TaskRef } from "./progress";

/**
 * The items of a practice set the signed-in learner has answered right, to resume it. Answers are
 * read as their routes type them (the contract's types), like every other answer of the API.
 */
export const practiceProgressQuery = (chapterId: string, dayId: string, taskId: string) =>
  queryOptions({
    queryKey: practiceProgressQueryKey(chapterId, dayId, taskId),
    queryFn: () =>
      call(
        apiClient.answers[":chapterId"][":dayId"][":taskId"].$get({
          param: pathParams({ chapterId, dayId, taskId }),
        }),
      ),
  });

interface SentAnswer {
  clientId: string;
  itemId: string;
  given: Given;
}

const sameAnswer = (sent: SentAnswer | undefined, itemId: string, given: Given) =>
  sent?.itemId === itemId && JSON.stringify(sent.given) === JSON.stringify(given);

/**
 * Sends the answers to one practice set: the server grades and stores the answer. Each answer gets
 * its own clientId, and a retry of the same answer after a failure sends it again, so the server
 * stores it once however many sends reached it (decision 032). When an answer completes the set's
 * task, the cached progress is refreshed so the Codebook shows the mission completed.
 */
export function useAnswer(task: TaskRef) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (sent: SentAnswer): Promise<AnswerResponse> => {
      const json = { ...task, ...sent };
      const request = { method: "POST" as const, path: "/answers", body: json };
      const submission = {
        kind: "answer" as const,
        label: `Your answer in ${task.dayId}`,
        request,
        clientId: sent.clientId,
      };
      return sendNowOrKeep(submission, () => call(apiClient.answers.$post({ json })));
    },
    onSuccess: (response) => {
      const { chapterId, dayId, taskId } = task;
      // Read again when the set is next opened, not now: this run already knows what it answered.
      void queryClient.invalidateQueries({
        queryKey: practiceProgressQueryKey(chapterId, dayId, taskId),
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
