import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import type { CompletedDays, ProgressMap } from "#course/progress-rules";
import type { TaskStatus } from "#course/progress-status";
import type { Role } from "#course/roles";
import type { ProgressView } from "#server/modules/progress/progress.contract";
import { apiClient, call, pathParams } from "#web/lib/api";
import { WriteWaiting } from "#web/lib/offline/outbox";
import { sendNowOrKeep } from "#web/lib/offline/send-now-or-keep";
import { useProfile } from "#web/lib/profile";
import { progressQueryKey, reviewSummaryQueryKey } from "#web/lib/query-keys";
import { sessionQuery } from "#web/lib/session";
import { toast } from "#web/lib/toast";

const NO_PROGRESS: ProgressMap = {};
const NO_COMPLETED_DAYS: CompletedDays = [];

/** What reading the progress and saving a task answer: the task map, and the days completed once (decision 030). */
export type ProgressResponse = ProgressView;

/** An answer from a server without completed days (an older instance) is read as having none. */
function learnerProgressOf(answer: Pick<ProgressResponse, "progress"> & Partial<ProgressResponse>): ProgressResponse {
  return { progress: answer.progress, completedDays: answer.completedDays ?? NO_COMPLETED_DAYS };
}

export const progressQuery = queryOptions({
  queryKey: progressQueryKey,
  queryFn: async () => learnerProgressOf(await call(apiClient.progress.$get())),
  staleTime: 30_000,
});

export type LearnerState =
  | { isPending: true }
  | {
      isPending: false;
      signedIn: boolean;
      role: Role | null;
      /** The viewer's own progress; empty for visitors, and while it could not be read. */
      progress: ProgressMap;
      /**
       * The days the viewer completed once: they keep the days after them open after the course adds
       * a task to them (decision 030). None (or absent) for visitors.
       */
      completedDays?: CompletedDays;
      /**
       * Not known yet, shown as a visitor (useLearner's `asVisitorWhilePending`): the page must not
       * act on it (save progress, or tell the viewer to sign in) until the session is read.
       */
      provisional?: true;
    };

/** A viewer whose progress is known (or shown provisionally). */
export type Learner = Extract<LearnerState, { isPending: false }>;

const PENDING: LearnerState = { isPending: true };
const VISITOR: Learner = {
  isPending: false,
  signedIn: false,
  role: null,
  progress: NO_PROGRESS,
  completedDays: NO_COMPLETED_DAYS,
};
const PROVISIONAL_VISITOR: Learner = { ...VISITOR, provisional: true };

/**
 * Who is looking at the course and how far they are. Visitors get an empty map and no request is
 * made; a failed read is only logged (spec section 8) and shows as no progress.
 *
 * With `asVisitorWhilePending`, a page shows itself as a visitor sees it until the session and the
 * progress are read (flagged `provisional`): a course page the build prerendered for visitors
 * then keeps that HTML on screen instead of a "Loading…" in its place.
 */
export function useLearner(options: { asVisitorWhilePending: true }): Learner;
export function useLearner(options?: { asVisitorWhilePending?: boolean }): LearnerState;
export function useLearner({ asVisitorWhilePending = false } = {}): LearnerState {
  const { isPending, profile } = useProfile();
  // Asked for as soon as there is a session, beside the profile rather than after it.
  const hasSession = useQuery(sessionQuery).data != null;
  const query = useQuery({ ...progressQuery, enabled: hasSession });
  if (query.isError && profile) console.error("Could not read progress", query.error);
  // The same object while nothing changes, so pages can skip drawing again (memo, useDeferredValue).
  const role = profile?.role ?? null;
  const progress = query.data?.progress ?? NO_PROGRESS;
  const completedDays = query.data?.completedDays ?? NO_COMPLETED_DAYS;
  const learner = useMemo(
    (): Learner => ({ isPending: false, signedIn: true, role, progress, completedDays }),
    [role, progress, completedDays],
  );
  const pending = asVisitorWhilePending ? PROVISIONAL_VISITOR : PENDING;
  if (isPending) return pending;
  if (!profile) return VISITOR;
  if (query.isPending && !query.isError) return pending;
  return learner;
}

export interface TaskRef {
  chapterId: string;
  dayId: string;
  taskId: string;
}

/** Records a task's status: at once, or kept on the device and sent when back online (decision 088). */
export function saveTaskStatus(task: TaskRef, status: Exclude<TaskStatus, "not-started">) {
  const { chapterId, dayId, taskId } = pathParams(task);
  const submission = {
    kind: "progress" as const,
    label: `Your progress on ${task.dayId}`,
    request: { method: "PUT" as const, path: `/progress/${chapterId}/${dayId}/${taskId}`, body: { status } },
  };
  return sendNowOrKeep(submission, () =>
    call(apiClient.progress[":chapterId"][":dayId"][":taskId"].$put({ param: pathParams(task), json: { status } })),
  );
}

/**
 * Records a task of the viewer's own progress. On success the cached progress becomes the server's
 * answer and the review summary is read again; on failure the spec's "Progress Update Failed" toast
 * shows and nothing changes locally.
 */
export function useSaveTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ status, ...task }: TaskRef & { status: Exclude<TaskStatus, "not-started"> }) =>
      saveTaskStatus(task, status),
    onSuccess: (answer) => {
      queryClient.setQueryData(progressQueryKey, learnerProgressOf(answer));
      // Starting a day's phrase cards or practice adds its phrases to the review deck.
      void queryClient.invalidateQueries({ queryKey: reviewSummaryQueryKey });
    },
    onError: (error) => {
      if (error instanceof WriteWaiting) {
        toast({ title: "Saved on this device", description: "Your progress will be sent when you are back online." });
        return;
      }
      console.error("Could not save progress", error);
      toast({ title: "Progress Update Failed", description: "Could not save your progress.", variant: "destructive" });
    },
  });
}
