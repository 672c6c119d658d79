import { CourseDayFrame } from "../features/course/components/course-day-frame";
import { LiveSessionPage } from "../features/course/components/live-session/live-session-page";

export function Component() {
  return (
    <CourseDayFrame part="live-session">
      {(open) => <LiveSessionPage key={`${open.chapter.id}/${open.day.id}`} open={open} />}
    </CourseDayFrame>
  );
}
