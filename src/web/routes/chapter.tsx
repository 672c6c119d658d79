import { useParams } from "react-router";
import { NotFound } from "../components/not-found";
import { ChapterPlaceholder } from "../features/course/components/chapter-placeholder";
import { findChapter } from "../features/course/course-outline";

export function Component() {
  const chapter = findChapter(useParams().chapterId);
  return chapter ? <ChapterPlaceholder chapter={chapter} /> : <NotFound />;
}
