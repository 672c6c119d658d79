import { useParams } from "react-router";
import { findChapter } from "#course/course";
import { NotFound } from "#web/components/not-found";
import { ChapterOverview } from "#web/features/course/components/chapter/chapter-overview";
import { COURSE } from "#web/lib/course-data";

export function Component() {
  const chapter = findChapter(COURSE, useParams().chapterId);
  return chapter ? <ChapterOverview key={chapter.id} chapter={chapter} /> : <NotFound />;
}
