import { CircleCheck } from "lucide-react";
import { taskStatus } from "#course/progress-rules";
import { Button } from "#web/components/ui/button";
import { useSaveTask } from "#web/features/course/api/progress";
import type { OpenDay } from "#web/features/course/components/course-day-frame";
import { toast } from "#web/lib/toast";

/** The spec's answer to a visitor who tries to save progress on a story page (section 8). */
export function signInToSaveToast() {
  toast({ title: "Hold on! You need to be signed in to save your progress.", variant: "destructive" });
}

/**
 * Records one task of the open day as completed. Once it is (now, or from an earlier visit) the
 * button reads "Completed" and is disabled. A visitor is told to sign in and nothing is saved. Until
 * the session is read (a provisional learner) the button waits, disabled.
 */
export function CompleteTaskButton({
  open,
  taskId,
  label,
  onCompleted,
}: {
  open: OpenDay;
  taskId: string;
  label: string;
  onCompleted?: () => void;
}) {
  const save = useSaveTask();
  const { chapter, day, learner } = open;
  const completed = taskStatus(learner.progress, chapter.id, day.id, taskId) === "completed";
  if (completed) {
    return (
      <Button disabled variant="secondary">
        <CircleCheck aria-hidden />
        Completed
      </Button>
    );
  }
  const complete = () => {
    if (!learner.signedIn) {
      signInToSaveToast();
      return;
    }
    save.mutate({ chapterId: chapter.id, dayId: day.id, taskId, status: "completed" }, { onSuccess: onCompleted });
  };
  return (
    <Button onClick={complete} disabled={save.isPending || learner.provisional} aria-busy={save.isPending || undefined}>
      {label}
    </Button>
  );
}
