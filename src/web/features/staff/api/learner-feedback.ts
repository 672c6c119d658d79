import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { apiClient, call, describeError, pathParams } from "#web/lib/api";
import { learnerFeedbackQueryKey } from "#web/lib/query-keys";
import { toast } from "#web/lib/toast";

/** A note in a learner's record as staff read it: `mine` when the viewer may correct or withdraw it. */
export type SentFeedback = InferResponseType<
  (typeof apiClient.feedback.learners)[":studentId"]["$get"],
  200
>["feedback"][number];

/** The feedback a learner received, newest first (staff). */
export function useLearnerFeedback(studentId: string) {
  return useQuery({
    queryKey: learnerFeedbackQueryKey(studentId),
    queryFn: async () =>
      (await call(apiClient.feedback.learners[":studentId"].$get({ param: pathParams({ studentId }) }))).feedback,
  });
}

/** Corrects a note's text; the record shows the correction, as the learner now reads it. */
export function useCorrectFeedback(studentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, feedback }: { id: string; feedback: string }) =>
      call(apiClient.feedback[":id"].$patch({ param: pathParams({ id }), json: { feedback } })),
    onSuccess: ({ feedback: corrected }) => {
      queryClient.setQueryData<SentFeedback[]>(learnerFeedbackQueryKey(studentId), (notes) =>
        notes?.map((note) => (note.id === corrected.id ? corrected : note)),
      );
      toast({ title: "Feedback corrected.", description: "They now read the corrected note." });
    },
    onError: (error) =>
      toast({
        title: "Error correcting feedback",
        description: describeError(error, "Could not correct the feedback."),
        variant: "destructive",
      }),
  });
}

/** Withdraws a note: the learner no longer sees it, and it leaves the record. */
export function useWithdrawFeedback(studentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => call(apiClient.feedback[":id"].$delete({ param: pathParams({ id }) })),
    onSuccess: ({ withdrawn }) => {
      queryClient.setQueryData<SentFeedback[]>(learnerFeedbackQueryKey(studentId), (notes) =>
        notes?.filter((note) => note.id !== withdrawn),
      );
      toast({ title: "Feedback withdrawn.", description: "They no longer see it." });
    },
    onError: (error) =>
      toast({
        title: "Error withdrawing feedback",
        description: describeError(error, "Could not withdraw the feedback."),
        variant: "destructive",
      }),
  });
}
