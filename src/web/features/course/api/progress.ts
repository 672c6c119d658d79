import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ProgressMap } from "../../../../course/progress-rules";
import type { TaskStatus } from "../../../../course/progress-status";
import type { Role } from "../../../../course/roles";
import { api } from "../../../lib/api";
import { useProfile } from "../../../lib/profile";
import { toast } from "../../../lib/toast";

export interface ProgressResponse {
  progress: ProgressMap;
}

export const progressQueryKey = ["progress"] as const;

export const progressQuery = queryOptions({
  queryKey: progressQueryKey,
  queryFn: async () => (await api<ProgressResponse>("/api/progress")).progress,
  staleTime: 30_000,
});

const NO_PROGRESS: ProgressMap = {};

export type LearnerState =
  | { isPending: true }
  | {
      isPending: false;
      signedIn: boolean;
      role: Role | null;
      /** The viewer's own progress; empty for visitors, and while it could not be read. */
      progress: ProgressMap;
    };

/**
 * Who is looking at the course and how far they are. Visitors get an empty map and no request is
 * made; a failed read is only logged (spec section 8) and shows as no progress.
 */
export function useLearner(): LearnerState {
  const { isPending, profile } = useProfile();
  const query = useQuery({ ...progressQuery, enabled: Boolean(profile) });
  if (query.isError) console.error("Could not read progress", query.error);
  if (isPending) return { isPending: true };
  if (!profile) return { isPending: false, signedIn: false, role: null, progress: NO_PROGRESS };
  if (query.isPending && !query.isError) return { isPending: true };
  return { isPending: false, signedIn: true, role: profile.role, progress: query.data ?? NO_PROGRESS };
}

export interface TaskRef {
  chapterId: string;
  dayId: string;
  taskId: string;
}

export function saveTaskStatus({ chapterId, dayId, taskId }: TaskRef, status: Exclude<TaskStatus, "not-started">) {
  const path = `/api/progress/${[chapterId, dayId, taskId].map(encodeURIComponent).join("/")}`;
  return api<ProgressResponse>(path, { method: "PUT", body: { status } });
}

/**
 * Records a task of the viewer's own progress. On success the cached progress becomes the server's
 * answer; on failure the spec's "Progress Update Failed" toast shows and nothing changes locally.
 */
export function useSaveTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ status, ...task }: TaskRef & { status: Exclude<TaskStatus, "not-started"> }) =>
      saveTaskStatus(task, status),
    onSuccess: ({ progress }) => queryClient.setQueryData(progressQueryKey, progress),
    onError: (error) => {
      console.error("Could not save progress", error);
      toast({ title: "Progress Update Failed", description: "Could not save your progress.", variant: "destructive" });
    },
  });
}
