import { NotFound } from "../components/not-found";
import { DayPlaceholder } from "../features/course/components/day-placeholder";
import { useCourseDay } from "../features/course/use-course-day";

export function Component() {
  const found = useCourseDay();
  return found ? <DayPlaceholder {...found} part="story" /> : <NotFound />;
}
