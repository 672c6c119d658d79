import { CodebookPage } from "../features/course/components/codebook/codebook-page";
import { CourseDayFrame } from "../features/course/components/course-day-frame";

export function Component() {
  return (
    <CourseDayFrame part="codebook">
      {(open) => <CodebookPage key={`${open.chapter.id}/${open.day.id}`} open={open} />}
    </CourseDayFrame>
  );
}
