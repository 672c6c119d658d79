import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { isDayFinished } from "#course/progress-rules";
import type { CourseDayState } from "#web/features/course/use-course-day";
import { outlineDay } from "#web/lib/course-data";

type OpenDay = Extract<CourseDayState, { kind: "open" }>;

const DayCompleteDialog = lazy(() => import("./day-complete-dialog"));

/**
 * The moment a day is finished, on the page where its last task was done: when the signed-in
 * learner's day turns finished while the page is open (not when a finished day is opened again), a
 * dialog says so, with what the day taught, the streak and the badge, and one tap on to the next
 * day. Its code loads then.
 */
export function DayComplete({ open }: { open: OpenDay }) {
  const { chapter, day, learner } = open;
  const outline = outlineDay(chapter.id, day.id);
  const finished = Boolean(
    learner.signedIn && outline && isDayFinished(learner.progress, outline, learner.completedDays),
  );
  const key = `${chapter.id}/${day.id}`;
  const before = useRef<{ key: string; signedIn: boolean; finished: boolean } | null>(null);
  const [shownFor, setShownFor] = useState<string | null>(null);
  useEffect(() => {
    const was = before.current;
    before.current = { key, signedIn: learner.signedIn, finished };
    if (was?.key === key && was.signedIn && !was.finished && finished) setShownFor(key);
  }, [key, learner.signedIn, finished]);
  if (shownFor !== key) return null;
  return (
    <Suspense fallback={null}>
      <DayCompleteDialog open={open} onClose={() => setShownFor(null)} />
    </Suspense>
  );
}
