import { can } from "../../course/roles";
import { CourseDayFrame, type OpenDay } from "../features/course/components/course-day-frame";
import { LiveSessionPage } from "../features/course/components/live-session/live-session-page";
import { LiveSessionControls } from "../features/staff/components/live-session-controls/live-session-controls";

export function Component() {
  return (
    <CourseDayFrame part="live-session">
      {(open) => (
        <LiveSessionPage key={`${open.chapter.id}/${open.day.id}`} open={open} tutorControls={tutorControls(open)} />
      )}
    </CourseDayFrame>
  );
}

/** Staff get the tutor controls on a live session that has content; the server checks the role again. */
function tutorControls({ chapter, day, learner }: OpenDay) {
  if (!can(learner.role, "tutor:view") || !day.liveSession) return undefined;
  const tasks = day.liveSession.practice.map((practice) => ({ id: practice.taskId, title: practice.title }));
  return <LiveSessionControls chapterId={chapter.id} dayId={day.id} tasks={tasks} />;
}
