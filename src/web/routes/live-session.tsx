import { lazy, Suspense, useEffect, useState } from "react";
import { can } from "#course/roles";
import { CourseDayFrame, type OpenDay } from "#web/features/course/components/course-day-frame";
import { LiveSessionPage } from "#web/features/course/components/live-session/live-session-page";
import type { LiveSessionControls as Controls } from "#web/features/staff/components/live-session-controls/live-session-controls";

/** The day's content, for the page and its prerendered HTML (use-course-day.ts). */
export { courseDayLoader as loader } from "#web/features/course/use-course-day";

/** Booking a tutor loads with its own chunk once the page is up: the page's first load stays within budget. */
const DaySession = lazy(() => import("#web/features/sessions/components/day-session"));

// The tutor controls (staff APIs, their schemas and Radix Select) load for staff only, and show once
// they have: their section appears with them.
let controlsModule: Promise<typeof Controls> | undefined;
const loadControls = () => {
  controlsModule ??= import("#web/features/staff/components/live-session-controls/live-session-controls").then(
    (module) => module.LiveSessionControls,
    (error: unknown) => {
      controlsModule = undefined;
      throw error;
    },
  );
  return controlsModule;
};

export function Component() {
  return (
    <CourseDayFrame part="live-session">
      {(open) => <LiveSession key={`${open.chapter.id}/${open.day.id}`} open={open} />}
    </CourseDayFrame>
  );
}

function LiveSession({ open }: { open: OpenDay }) {
  const { chapter, day, learner } = open;
  // Staff get the tutor controls on a live session that has content; the server checks the role again.
  const rolePlays = (day.liveSession?.blocks ?? []).filter((block) => block.type === "role-play");
  const forStaff = can(learner.role, "tutor:view") && rolePlays.length > 0;
  const [TutorControls, setTutorControls] = useState<typeof Controls | null>(null);
  useEffect(() => {
    if (forStaff)
      loadControls().then(
        (loaded) => setTutorControls(() => loaded),
        () => {},
      );
  }, [forStaff]);
  const tasks = rolePlays.map((rolePlay) => ({ id: rolePlay.task.id, title: rolePlay.title }));
  return (
    <LiveSessionPage
      open={open}
      session={
        learner.signedIn && rolePlays.length > 0 ? (
          <Suspense fallback={null}>
            <DaySession chapterId={chapter.id} dayId={day.id} />
          </Suspense>
        ) : undefined
      }
      tutorControls={
        forStaff && TutorControls ? (
          <TutorControls chapterId={chapter.id} dayId={day.id} tasks={tasks} phrases={day.vocabulary} />
        ) : undefined
      }
    />
  );
}
