import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import type { Feedback } from "#course/feedback";
import type { ProgressMap } from "#course/progress-rules";
import type { TaskStatus } from "#course/progress-status";
import type { Role } from "#course/roles";
import type { UserPage, UserSummary } from "#course/users";
import { struggleReportQuery } from "#web/features/review/api/review";
import { api, describeError } from "#web/lib/api";
import { toast } from "#web/lib/toast";

export type { UserPage, UserSummary };

export const USERS_PER_PAGE = 20;

export const usersQuery = ({ search = "", page = 1, perPage = USERS_PER_PAGE } = {}) =>
  queryOptions({
    queryKey: ["users", { search, page, perPage }],
    queryFn: () => {
      const query = new URLSearchParams({ page: String(page), perPage: String(perPage) });
      if (search.trim()) query.set("search", search.trim());
      return api<UserPage>(`/api/users?${query}`);
    },
    placeholderData: keepPreviousData,
  });

/** Users matching `search`, a page at a time. A failure shows "Error fetching users" with the server's words. */
export function useUsers(options: { search?: string; page?: number; perPage?: number } = {}) {
  const query = useQuery(usersQuery(options));
  useErrorToast(query.error, "Error fetching users", "Could not load the users.");
  return query;
}

/** PATCH /api/users/:userId/role (Admin only), then the list is read again. */
export function useChangeRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) =>
      api<{ user: UserSummary }>(`/api/users/${encodeURIComponent(userId)}/role`, { method: "PATCH", body: { role } }),
    onSuccess: async () => {
      toast({ title: "User role has been updated." });
      await queryClient.invalidateQueries({ queryKey: ["users"] });
    },
    onError: (error) =>
      toast({
        title: "Error updating role",
        description: describeError(error, "Could not update the role."),
        variant: "destructive",
      }),
  });
}

/** The cache key of a user's progress as staff read it; invalidate it after changing that progress. */
export const userProgressKey = (userId: string) => ["users", userId, "progress"] as const;

/**
 * Any user's progress, for staff (GET /api/users/:userId/progress). On failure the spec's "Error
 * fetching user's progress" toast shows and the grid is cleared (the query has no data).
 */
export function useUserProgress(userId: string | null) {
  const query = useQuery({
    queryKey: userProgressKey(userId ?? ""),
    queryFn: async () =>
      (await api<{ progress: ProgressMap }>(`/api/users/${encodeURIComponent(userId ?? "")}/progress`)).progress,
    enabled: Boolean(userId),
  });
  useErrorToast(query.error, "Error fetching user's progress", "Could not load the progress.");
  return query;
}

function userTaskPath(userId: string, chapterId: string, dayId: string, taskId: string) {
  return `/api/users/${[userId, "progress", chapterId, dayId, taskId].map(encodeURIComponent).join("/")}`;
}

export interface StaffTaskUpdate {
  userId: string;
  chapterId: string;
  dayId: string;
  taskId: string;
  status: TaskStatus;
}

/** Sets any status of a user's task, day locking bypassed (PUT /api/users/:userId/progress/…). */
export function setUserTaskStatus({ userId, chapterId, dayId, taskId, status }: StaffTaskUpdate) {
  return api<{ progress: ProgressMap }>(userTaskPath(userId, chapterId, dayId, taskId), {
    method: "PUT",
    body: { status },
  });
}

/** The tutor dashboard's status change: "Success! Student's progress updated." or "Update Failed". */
export function useSetUserTaskStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setUserTaskStatus,
    onSuccess: ({ progress }, { userId }) => {
      queryClient.setQueryData(userProgressKey(userId), progress);
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

/** Deletes every progress record of a user (DELETE /api/users/:userId/progress), then reloads it. */
export function useResetUserProgress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api<{ deleted: number }>(`/api/users/${encodeURIComponent(userId)}/progress`, { method: "DELETE" }),
    onSuccess: async (_result, userId) => {
      toast({ title: "User's progress has been reset." });
      await queryClient.invalidateQueries({ queryKey: userProgressKey(userId) });
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
 * POST /api/feedback (Tutor and Admin): stored for the chosen learner, from the signed-in tutor. A
 * pinned phrase goes as pinPhraseId, and the learner's struggle report is read again before the
 * mutation settles, so it shows the phrase pinned.
 */
export function useSubmitFeedback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ pin, ...note }: FeedbackInput) =>
      api<{ feedback: Feedback }>("/api/feedback", {
        method: "POST",
        body: pin ? { ...note, pinPhraseId: pin.phraseId } : note,
      }),
    onSuccess: (_result, { studentId, pin }) => {
      toast({
        title: "Feedback has been submitted.",
        description: pin ? `“${pin.malay}” is pinned to their review.` : undefined,
      });
      if (pin) return queryClient.invalidateQueries({ queryKey: struggleReportQuery(studentId).queryKey });
    },
    onError: (error) =>
      toast({
        title: "Error submitting feedback",
        description: describeError(error, "Could not submit the feedback."),
        variant: "destructive",
      }),
  });
}

/** One toast per failed fetch (the spec's error toasts carry the server's message). */
function useErrorToast(error: Error | null, title: string, fallback: string) {
  useEffect(() => {
    if (error) toast({ title, description: describeError(error, fallback), variant: "destructive" });
  }, [error, title, fallback]);
}
