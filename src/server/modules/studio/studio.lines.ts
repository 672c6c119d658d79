import { type Chapter, courseAudioPath, type Day, daySpokenItems, findDay } from "#course/course";
import { practisedLines, type SpokenLineKind } from "#course/speaking";

/** A spoken line of the course as the studio records it. */
export interface CourseLine {
  chapterId: string;
  dayId: string;
  lineId: string;
  malay: string;
  english: string;
  speaker: string | null;
  kind: SpokenLineKind;
  /** The espeak clip's path (courseAudioPath): what the line plays until a native clip is published. */
  audio: string;
}

/**
 * Every spoken line of a day once, in page order: the phrase cards, the story's narration and
 * dialogue, the role-plays' phrases and their partner's turns (daySpokenItems: what has a clip).
 */
export function dayLines(chapter: Chapter, day: Day): readonly CourseLine[] {
  // The course is loaded once and never changes: each day's lines are worked out once, not on every
  // read of the published list, which looks up a line per clip on every page that plays audio.
  let lines = linesOfDay.get(day);
  if (!lines) {
    lines = linesOf(chapter, day);
    linesOfDay.set(day, lines);
  }
  return lines;
}

const linesOfDay = new WeakMap<Day, readonly CourseLine[]>();

function linesOf(chapter: Chapter, day: Day): CourseLine[] {
  const kinds = new Map(practisedLines(day).map((line) => [line.id, line.kind]));
  const seen = new Set<string>();
  const lines: CourseLine[] = [];
  for (const item of daySpokenItems(chapter, day)) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    lines.push({
      chapterId: chapter.id,
      dayId: day.id,
      lineId: item.id,
      malay: item.malay,
      english: item.english,
      speaker: item.speaker ?? null,
      // A role-play's partner turns are not lines a learner says, but they are the role-play's.
      kind: kinds.get(item.id) ?? "role-play",
      audio: courseAudioPath(chapter.id, day.id, item.id),
    });
  }
  return lines;
}

/** The line of the course under these ids, if it has one. */
export function courseLine(
  course: readonly Chapter[],
  key: { chapterId: string; dayId: string; lineId: string },
): CourseLine | undefined {
  const found = findDay(course, key.chapterId, key.dayId);
  if (!found) return undefined;
  return dayLines(found.chapter, found.day).find((line) => line.lineId === key.lineId);
}

/** "Chapter 1, Day 2: Ordering drinks". */
export const dayTitle = (chapter: Chapter, day: Day) => `Chapter ${chapter.number}, Day ${day.number}: ${day.subtopic}`;
