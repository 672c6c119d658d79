import type { AnyBlock, DayPages, Section } from "./content-schema-blocks";
import { dayBlocks, sectionLines, storySections } from "./day-blocks";
import type { Phrase } from "./review-rules";

/**
 * The learner's own voice (docs/decisions/047-speaking.md): the lines a learner says into Jalan,
 * what a take may be, and when saying a day's lines completes a task. Read by the server, which
 * enforces them, and by the web app, which checks first for speed.
 */

/** How a learner rates their own take after hearing it beside the model. */
export const SELF_RATINGS = ["again", "close", "good"] as const;
export type SelfRating = (typeof SELF_RATINGS)[number];
export const SELF_RATING_LABELS: Record<SelfRating, string> = { again: "Again", close: "Close", good: "Good" };

/** Where a take's audio is served (GET /api/speaking/takes/:takeId): to its owner and to staff who may act on them. */
export const takeAudioPath = (takeId: string) => `/api/speaking/takes/${takeId}`;

/** A take is at most 30 s and 1 MB; the recorder stops itself at 30 s. */
export const TAKE_MAX_MS = 30_000;
export const TAKE_MAX_BYTES = 1024 * 1024;
/** What a learner keeps in all; past it, their oldest takes not sent to a tutor are removed first. */
export const TAKES_QUOTA_BYTES = 25 * 1024 * 1024;
/** The containers a take may come in: Opus in WebM, or AAC in MP4 where the browser only makes that. */
export const TAKE_TYPES = ["audio/webm", "audio/mp4"] as const;
export type TakeType = (typeof TAKE_TYPES)[number];

/** A tutor rates each line 1 (far off) to 5 (like the model); 2 or less pins the line into the learner's review. */
export const TUTOR_RATING_MIN = 1;
export const TUTOR_RATING_MAX = 5;
export const PINNED_AT_OR_BELOW = 2;
export const TUTOR_COMMENT_MAX = 1000;
/** Submissions a learner may have waiting for a tutor at once. */
export const WAITING_SUBMISSIONS_MAX = 10;

/** Where a line a learner says comes from. */
export type SpokenLineKind = "vocabulary" | "story" | "role-play";

/** A line a learner may record: a phrase card, a line of the story, a role-play's phrase. */
export interface PractisedLine {
  id: string;
  malay: string;
  english: string;
  kind: SpokenLineKind;
  /** A story line's speaker ("Alex"); the story's "your turn" leaves Alex's lines to the learner. */
  speaker?: string | undefined;
}

type DayLines = Pick<DayPages, "vocabulary" | "story" | "codebook" | "liveSession">;

/** Every line of a day a learner may record, in page order: phrase cards, the story's lines, role-play phrases. */
export function practisedLines(day: DayLines): PractisedLine[] {
  const lines: PractisedLine[] = day.vocabulary.map((entry) => ({
    id: entry.id,
    malay: entry.malay,
    english: entry.english,
    kind: "vocabulary",
  }));
  for (const section of storySections(day)) {
    for (const content of section.content) {
      if (content.type === "narration") {
        for (const line of content.lines) lines.push({ ...pick(line), kind: "story" });
      } else if (content.type === "dialogue") {
        for (const line of content.lines) lines.push({ ...pick(line), kind: "story", speaker: line.speaker });
      }
    }
  }
  for (const { block } of dayBlocks(day)) {
    if (block.type === "role-play")
      for (const phrase of block.phrases) lines.push({ ...pick(phrase), kind: "role-play" });
  }
  return lines;
}

const pick = (line: { id: string; malay: string; english: string }) => ({
  id: line.id,
  malay: line.malay,
  english: line.english,
});

/** The line of a day under this id that a learner may record, if any. */
export function practisedLine(day: DayLines, lineId: string): PractisedLine | undefined {
  return practisedLines(day).find((line) => line.id === lineId);
}

type ListenShadow = Extract<AnyBlock, { type: "listen-shadow" }>;
type RolePlayBlock = Extract<AnyBlock, { type: "role-play" }>;

/**
 * The day's listen-and-shadow mission under this task id, with the lines it has the learner say:
 * the dialogue of its story section. Done when each was listened to and either recorded or said aloud.
 */
export function shadowingOf(day: DayLines, taskId: string): { block: ListenShadow; lineIds: string[] } | undefined {
  for (const { block } of dayBlocks(day)) {
    if (block.type !== "listen-shadow" || block.task.id !== taskId) continue;
    const section: Section | undefined = storySections(day).find((candidate) => candidate.id === block.sectionId);
    return { block, lineIds: section ? sectionLines(section).map((line) => line.id) : [] };
  }
  return undefined;
}

/** The listen-and-shadow missions of a day whose lines include this one. */
export function shadowingsWithLine(day: DayLines, lineId: string): { block: ListenShadow; lineIds: string[] }[] {
  return dayBlocks(day).flatMap(({ block }) => {
    if (block.type !== "listen-shadow") return [];
    const found = shadowingOf(day, block.task.id);
    return found?.lineIds.includes(lineId) ? [found] : [];
  });
}

/** The role-play of a day under this task id, with the phrases the learner says in it. */
export function rolePlayOf(day: DayLines, taskId: string): RolePlayBlock | undefined {
  for (const { block } of dayBlocks(day)) {
    if (block.type === "role-play" && block.task.id === taskId) return block;
  }
  return undefined;
}

/** Whether a task is one the learner's voice completes: a listen-and-shadow mission or a role-play. */
export function isSpokenTask(day: DayLines, taskId: string): boolean {
  return shadowingOf(day, taskId) !== undefined || rolePlayOf(day, taskId) !== undefined;
}

/**
 * The lines of the course a learner says that are not phrase cards (story lines, role-play phrases),
 * as review reads a phrase: a tutor who rates a take of one 2 or less pins it into the learner's
 * review. Unlike the day's phrase cards, a learner never meets them as cards otherwise.
 */
export function spokenLinePhrases(
  course: readonly { id: string; days: readonly (DayLines & { id: string; number: number; subtopic: string })[] }[],
): Phrase[] {
  return course.flatMap((chapter) =>
    chapter.days.flatMap((day) =>
      practisedLines(day)
        .filter((line) => line.kind !== "vocabulary")
        .map((line) => ({
          chapterId: chapter.id,
          dayId: day.id,
          dayNumber: day.number,
          dayTitle: day.subtopic,
          id: line.id,
          malay: line.malay,
          english: line.english,
        })),
    ),
  );
}
