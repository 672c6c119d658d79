import { useParams } from "react-router";
import { findChapter } from "./course-outline";

/** The chapter and day named in the URL, or null when the course has no such day. */
export function useCourseDay() {
  const { chapterId, dayId } = useParams();
  const chapter = findChapter(chapterId);
  const day = chapter?.days.find((candidate) => candidate.id === dayId);
  return chapter && day ? { chapter, day } : null;
}
