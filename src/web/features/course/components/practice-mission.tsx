import { lazy, Suspense } from "react";
import type { PracticeSet as PracticeBlock } from "#course/course";
import { taskStatus } from "#course/progress-rules";
import type { OpenDay } from "./course-day-frame";

/** The exercise code loads only on pages that hold a practice set. */
const PracticeSet = lazy(() => import("./practice/practice-set"));

/**
 * A practice set of the open day. A signed-in learner's answers are graded and kept by the server,
 * which completes the task once every item has been answered right; a visitor's are graded in the
 * browser and kept for the visit only (`onCompleted` tells the page).
 */
export function PracticeMission({
  open,
  practice,
  completed,
  onCompleted,
}: {
  open: OpenDay;
  practice: PracticeBlock;
  completed?: boolean;
  onCompleted?: () => void;
}) {
  const { chapter, day, learner } = open;
  const stored = taskStatus(learner.progress, chapter.id, day.id, practice.task.id) === "completed";
  return (
    <Suspense fallback={<p className="text-muted-foreground">Loading the practice…</p>}>
      <PracticeSet
        chapterId={chapter.id}
        dayId={day.id}
        taskId={practice.task.id}
        items={practice.items}
        signedIn={learner.signedIn}
        completed={completed ?? stored}
        onCompleted={onCompleted}
      />
    </Suspense>
  );
}
