import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TaskStatus } from "#course/progress-status";
import { apiClient, call, describeError, pathParams } from "#web/lib/api";
import { learnerFeedbackQueryKey, struggleReportQueryKey, userProgressQueryKey } from "#web/lib/query-keys";
import { toast, useErrorToast } from "#web/lib/toast";

/**
 * Any user's progress, for staff. On failure the spec's "Error fetching user's progress" toast
 * shows and the grid is cleared (the query has no data).
 */
export function useUserProgress(userId: string | null) {
  const query = useQuery({
    queryKey: userProgressQueryKey(userId ?? ""),
    queryFn: async () =>
      (await call(apiClient.users[":userId"].progress.$get({ param: pathParams({ userId: userId ?? "" }) }))).progress,
    enabled: Boolean(userId),
  });
  useErrorToast(query.error, "Error fetching user's progress", "Could not load the progress.");
  return query;
}

export interface StaffTaskUpdate {
  userId: string;
  chapterId: string;
  dayId: string;
  taskId: string;
  status: TaskStatus;
}

/** Sets any status of a user's task, day locking bypassed. */
export function setUserTaskStatus({ status, ...task }: StaffTaskUpdate) {
  return call(
    apiClient.users[":userId"].progress[":chapterId"][":dayId"][":taskId"].$put({
      param: pathParams(task),
      json: { status },
    }),
  );
}

/** The tutor dashboard's status change: "Success! Student's progress updated." or "Update Failed". */
export function useSetUserTaskStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserTaskStatus,
    onSuccess: ({ progress }, { userId }) => {
      queryClient.setQueryData(userProgressQueryKey(userId), progress);
      toast({ title: "Success!", description: "Student's progress updated." });
    },
    onError: (error) =>
      toast({
        title: "Update Failed",
        description: describeError(error, "Could not update the progress."),
        variant: "destructive",
      }),
  });
}

/** Deletes every progress record of a user, then reads it again. */
export function useResetUserProgress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      call(apiClient.users[":userId"].progress.$delete({ param: pathParams({ userId }) })),
    onSuccess: async (_result, userId) => {
      toast({ title: "User's progress has been reset." });
      await queryClient.invalidateQueries({ queryKey: userProgressQueryKey(userId) });
    },
    onError: (error) =>
      toast({
        title: "Error resetting progress",
        description: describeError(error, "Could not reset the progress."),
        variant: "destructive",
      }),
  });
}

export interface FeedbackInput {
  studentId: string;
  chapterId: string;
  dayId: string;
  feedback: string;
  /** A phrase of the day to pin into the learner's review with the note; `malay` is for the toast. */
  pin?: { phraseId: string; malay: string };
}

/**
 * A tutor's note (Tutor and Admin): stored for the chosen learner, from the signed-in tutor. A
 * pinned phrase goes as pinPhraseId, and the learner's struggle report is read again before the
 * mutation settles, so it shows the phrase pinned. Their feedback record is read again when next shown.
 */
export function useSubmitFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pin, ...note }: FeedbackInput) =>
      call(apiClient.feedback.$post({ json: pin ? { ...note, pinPhraseId: pin.phraseId } : note })),
    onSuccess: (_result, { studentId, pin }) => {
      toast({
        title: "Feedback has been submitted.",
        description: pin ? `“${pin.malay}” is pinned to their review.` : undefined,
      });
      void queryClient.invalidateQueries({ queryKey: learnerFeedbackQueryKey(studentId) });
      if (pin) return queryClient.invalidateQueries({ queryKey: struggleReportQueryKey(studentId) });
    },
    onError: (error) =>
      toast({
        title: "Error submitting feedback",
        description: describeError(error, "Could not submit the feedback."),
        variant: "destructive",
      }),
  });
}
