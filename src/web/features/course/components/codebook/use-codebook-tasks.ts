import { useCallback, useRef, useState } from "react";
import { taskStatus } from "#course/progress-rules";
import { useSaveTask } from "#web/features/course/api/progress";
import type { OpenDay } from "#web/features/course/components/course-day-frame";
import { toast } from "#web/lib/toast";

/**
 * The Codebook's tasks for the open day. `complete` records a task once: a signed-in learner's
 * save goes to the server (the cached progress then shows it completed); a visitor is told to sign
 * in (spec section 5) and the task counts as done for this visit only, so the next mission opens.
 * A practice set is never completed by a status write: its answers complete it (`completedByAnswers`).
 */
export function useCodebookTasks(open: OpenDay) {
  const { chapter, day, learner } = open;
  const save = useSaveTask();
  const [doneThisVisit, setDoneThisVisit] = useState<ReadonlySet<string>>(() => new Set());
  const requested = useRef(new Set<string>());

  const isCompleted = useCallback(
    (taskId: string) =>
      taskStatus(learner.progress, chapter.id, day.id, taskId) === "completed" || doneThisVisit.has(taskId),
    [learner.progress, chapter.id, day.id, doneThisVisit],
  );

  const complete = useCallback(
    (taskId: string) => {
      if (isCompleted(taskId) || requested.current.has(taskId)) return;
      if (!learner.signedIn) {
        toast({ title: "Please sign in to save progress." });
        setDoneThisVisit((done) => new Set(done).add(taskId));
        return;
      }
      requested.current.add(taskId);
      save.mutate(
        { chapterId: chapter.id, dayId: day.id, taskId, status: "completed" },
        { onError: () => requested.current.delete(taskId) },
      );
    },
    [isCompleted, learner.signedIn, save, chapter.id, day.id],
  );

  /**
   * A practice set answered right to the end. The server completed a signed-in learner's task
   * itself (the progress is read again); a visitor's counts for this visit only.
   */
  const completedByAnswers = useCallback(
    (taskId: string) => {
      if (!learner.signedIn) setDoneThisVisit((done) => new Set(done).add(taskId));
    },
    [learner.signedIn],
  );

  return { isCompleted, complete, completedByAnswers };
}
