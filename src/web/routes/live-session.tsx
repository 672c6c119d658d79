import { can } from "#course/roles";
import { CourseDayFrame, type OpenDay } from "#web/features/course/components/course-day-frame";
import { LiveSessionPage } from "#web/features/course/components/live-session/live-session-page";
import { LiveSessionControls } from "#web/features/staff/components/live-session-controls/live-session-controls";

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
  const rolePlays = (day.liveSession?.blocks ?? []).filter((block) => block.type === "role-play");
  if (!can(learner.role, "tutor:view") || rolePlays.length === 0) return undefined;
  const tasks = rolePlays.map((rolePlay) => ({ id: rolePlay.task.id, title: rolePlay.title }));
  return <LiveSessionControls chapterId={chapter.id} dayId={day.id} tasks={tasks} />;
}
