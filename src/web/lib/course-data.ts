import chapters from "virtual:jalan-course";
import { courseAudioPath, courseOutline } from "#course/course";
import { mediaUrl } from "#web/lib/media";

/** The course as the content files describe it, validated at build time (scripts/vite-course-content.ts). */
export const COURSE = chapters;

/** Every day in course order, as the progress rules see it. */
export const OUTLINE = courseOutline(chapters);

export function outlineDay(chapterId: string, dayId: string) {
  return OUTLINE.find((day) => day.chapterId === chapterId && day.dayId === dayId);
}

/** The URL of a spoken item's clip, with its content hash so browsers may cache it for a year. */
export function courseAudioUrl(chapterId: string, dayId: string, id: string) {
  return mediaUrl(courseAudioPath(chapterId, dayId, id));
}
