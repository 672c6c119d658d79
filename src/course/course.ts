import type { ChapterContent } from "./content-schema";
import { dayBlocks, sectionLines, storySections } from "./day-blocks";
import type { OutlineDay } from "./progress-rules";
import { isSpokenTask } from "./speaking";

export type Chapter = ChapterContent;
export type Day = Chapter["days"][number];
export type Task = Day["tasks"][number];
export type Story = NonNullable<Day["story"]>;
export type Codebook = NonNullable<Day["codebook"]>;
export type LiveSession = NonNullable<Day["liveSession"]>;
export type StoryBlock = Story["blocks"][number];
export type CodebookBlock = Codebook["blocks"][number];
export type LiveSessionBlock = LiveSession["blocks"][number];
export type StorySection = Extract<StoryBlock, { type: "section" }>;
export type SectionContent = StorySection["content"][number];
/** A practice set of graded items, on any page (the Codebook's Practice mission, a review day's quiz). */
export type PracticeSet = Extract<StoryBlock, { type: "practice" }>;
export type RolePlay = Extract<LiveSessionBlock, { type: "role-play" }>;
export type CultureNote = Extract<StoryBlock, { type: "culture-note" }>;
export type Mission = CodebookBlock;
export type SpokenLine = { id: string; malay: string; english: string };

export { dayBlocks, sectionLines, storySections };

/** Where the audio generated for a spoken item is served: /media/course/chapter-1/day-1/greeting.mp3. */
export function courseAudioPath(chapterId: string, dayId: string, id: string): string {
  return `/media/course/${chapterId}/${dayId}/${id}.mp3`;
}

/** A story section's whole dialogue in one recording, for the Codebook's listen-and-shadow mission. */
export const sectionDialogueAudioPath = courseAudioPath;

/** Every day of the course in order, as the progress rules see it. */
export function courseOutline(
  chapters: readonly { id: string; days: readonly Pick<Day, "id" | "number" | "tasks" | "requiresSignIn">[] }[],
): OutlineDay[] {
  return chapters.flatMap((chapter) =>
    chapter.days.map((day) => ({
      chapterId: chapter.id,
      dayId: day.id,
      number: day.number,
      taskIds: day.tasks.map((task) => task.id),
      requiresSignIn: day.requiresSignIn,
    })),
  );
}

/**
 * What the lookups below read of a chapter: the course's chapters, or any summary of them that keeps
 * the chapters' and days' ids (the web app's outline, which leaves the pages' content to load with
 * each day's page).
 */
interface ChapterIds {
  id: string;
  days: readonly { id: string }[];
}

export function findChapter<C extends ChapterIds>(
  chapters: readonly C[],
  chapterId: string | undefined,
): C | undefined {
  return chapters.find((chapter) => chapter.id === chapterId);
}

export function findDay<C extends ChapterIds>(
  chapters: readonly C[],
  chapterId: string | undefined,
  dayId: string | undefined,
): { chapter: C; day: C["days"][number] } | undefined {
  const chapter = findChapter(chapters, chapterId);
  const day = chapter?.days.find((candidate) => candidate.id === dayId);
  return chapter && day ? { chapter, day } : undefined;
}

/**
 * The chapter and day the course has under these ids, or what it lacks: a sentence naming the first
 * unknown id, which the API answers as a 400.
 */
export function lookUpDay(
  chapters: readonly Chapter[],
  chapterId: string,
  dayId: string,
): { chapter: Chapter; day: Day } | { unknown: string } {
  const chapter = findChapter(chapters, chapterId);
  if (!chapter) return { unknown: `There is no chapter "${chapterId}".` };
  const day = chapter.days.find((candidate) => candidate.id === dayId);
  if (!day) return { unknown: `"${chapterId}" has no day "${dayId}".` };
  return { chapter, day };
}

/** The chapter and day of a task the course has under these ids, or a sentence naming the first unknown id. */
export function lookUpTask(
  chapters: readonly Chapter[],
  { chapterId, dayId, taskId }: { chapterId: string; dayId: string; taskId: string },
): { chapter: Chapter; day: Day } | { unknown: string } {
  const found = lookUpDay(chapters, chapterId, dayId);
  if ("unknown" in found) return found;
  if (!found.day.tasks.some((task) => task.id === taskId)) {
    return { unknown: `Day ${found.day.number} of ${chapterId} has no task "${taskId}".` };
  }
  return found;
}

/** The day after this one in course order (across chapters), if any. */
export function dayAfter<C extends ChapterIds>(
  chapters: readonly C[],
  chapterId: string,
  dayId: string,
): { chapter: C; day: C["days"][number] } | undefined {
  const all = chapters.flatMap((chapter) => chapter.days.map((day) => ({ chapter, day })));
  const index = all.findIndex(({ chapter, day }) => chapter.id === chapterId && day.id === dayId);
  return index === -1 ? undefined : all[index + 1];
}

/** The tasks the blocks of one of a day's pages record, in order. */
export function pageTasks(day: Day, page: "story" | "codebook" | "liveSession"): Task[] {
  return dayBlocks(day).flatMap((entry) =>
    entry.page === page && "task" in entry.block && entry.block.task ? [entry.block.task] : [],
  );
}

/** The practice set a day holds under this task id, if that task is one. */
export function practiceSetOf(day: Day, taskId: string): PracticeSet | undefined {
  for (const { block } of dayBlocks(day)) {
    if (block.type === "practice" && block.task.id === taskId) return block;
  }
  return undefined;
}

/**
 * What completes a task: a practice set's answers (POST /api/answers), the learner's voice (a
 * listen-and-shadow mission's lines each heard and recorded or said aloud, a role-play done alone or
 * rated by a tutor; docs/decisions/047-speaking.md), or a status write. A learner's bare status
 * write completes only the last kind; staff set any task for a learner (/api/users/…/progress).
 */
export type TaskCompletion = "answers" | "voice" | "status";

export function completionOf(
  course: readonly Chapter[],
  target: { chapterId: string; dayId: string; taskId: string },
): TaskCompletion {
  const found = findDay(course, target.chapterId, target.dayId);
  if (!found) return "status";
  if (practiceSetOf(found.day, target.taskId)) return "answers";
  return isSpokenTask(found.day, target.taskId) ? "voice" : "status";
}

/** Every spoken item of a day with the audio file it plays: what the media generator makes. */
export function daySpokenItems(
  chapter: Pick<Chapter, "id">,
  day: Day,
): (SpokenLine & { audio: string; speaker?: string })[] {
  const withAudio = (line: SpokenLine & { speaker?: string }) => ({
    id: line.id,
    malay: line.malay,
    english: line.english,
    speaker: line.speaker,
    audio: courseAudioPath(chapter.id, day.id, line.id),
  });
  return [
    ...day.vocabulary.map(withAudio),
    ...dayBlocks(day)
      .flatMap(({ block }): (SpokenLine & { speaker?: string })[] => {
        switch (block.type) {
          case "section":
            return block.content.flatMap<SpokenLine & { speaker?: string }>((content) => {
              if (content.type === "narration") return content.lines;
              if (content.type === "dialogue") return content.lines;
              return [];
            });
          case "role-play":
            return [
              ...block.phrases,
              ...(block.script ?? []).flatMap((turn) => (turn.type === "partner" ? [turn] : [])),
            ];
          default:
            return [];
        }
      })
      .map(withAudio),
  ];
}

/** The culture and grammar videos of a day's pages, with where each is in the day. */
export function dayVideos(day: Day) {
  return dayBlocks(day).flatMap(({ block, path }) => (block.type === "video" ? [{ video: block.video, path }] : []));
}

/**
 * The recordings of whole sections' dialogue: a section the Codebook's listen-and-shadow mission plays
 * (at learning speed, a pause after each line), and a review day's section at natural speed.
 */
export function dayDialogueRecordings(chapter: Chapter, day: Day) {
  const listened = new Set(
    dayBlocks(day).flatMap(({ block }) => (block.type === "listen-shadow" ? [block.sectionId] : [])),
  );
  return storySections(day)
    .filter((section) => (listened.has(section.id) || section.pace === "natural") && sectionLines(section).length > 0)
    .map((section) => ({ section, audio: sectionDialogueAudioPath(chapter.id, day.id, section.id) }));
}
