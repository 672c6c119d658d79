/**
 * Which chapters and days have pages. Stands in until the course content files exist; only
 * names and order are here, no lesson material.
 */
export interface ChapterOutline {
  id: string;
  number: number;
  title: string;
  days: { id: string; number: number }[];
}

function days(from: number, to: number) {
  return Array.from({ length: to - from + 1 }, (_, index) => ({ id: `day-${from + index}`, number: from + index }));
}

export const COURSE_OUTLINE: readonly ChapterOutline[] = [
  { id: "chapter-1", number: 1, title: "The First Steps", days: days(1, 5) },
  { id: "chapter-2", number: 2, title: "Exploring the Market", days: days(6, 10) },
];

export function findChapter(chapterId: string | undefined) {
  return COURSE_OUTLINE.find((chapter) => chapter.id === chapterId);
}
