import { CourseDayFrame } from "#web/features/course/components/course-day-frame";
import { StoryPage } from "#web/features/course/components/story/story-page";

export function Component() {
  return (
    <CourseDayFrame part="story" asVisitorWhilePending>
      {(open) => <StoryPage key={`${open.chapter.id}/${open.day.id}`} open={open} />}
    </CourseDayFrame>
  );
}
