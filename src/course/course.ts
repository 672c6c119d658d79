import type { ChapterContent } from "./content-schema.ts";
import type { OutlineDay } from "./progress-rules.ts";

export type Chapter = ChapterContent;
export type Day = Chapter["days"][number];
export type Story = NonNullable<Day["story"]>;
export type StorySection = Story["sections"][number];
export type Codebook = NonNullable<Day["codebook"]>;
export type LiveSession = NonNullable<Day["liveSession"]>;
export type PhraseCard = Codebook["cards"]["items"][number];
export type SpokenLine = { id: string; malay: string; english: string };

/** Where the audio generated for a spoken item is served: /media/course/chapter-1/day-1/greeting.mp3. */
export function courseAudioPath(chapterId: string, dayId: string, id: string): string {
  return `/media/course/${chapterId}/${dayId}/${id}.mp3`;
}

/** A story section's whole dialogue in one recording, for the Codebook's listen-and-shadow mission. */
export const sectionDialogueAudioPath = courseAudioPath;

/** Every day of the course in order, as the progress rules see it. */
export function courseOutline(chapters: readonly Chapter[]): OutlineDay[] {
  return chapters.flatMap((chapter) =>
    chapter.days.map((day) => ({
      chapterId: chapter.id,
      dayId: day.id,
      number: day.number,
      taskIds: day.tasks.map((task) => task.id),
      available: day.available,
      requiresSignIn: day.requiresSignIn,
    })),
  );
}

export function findChapter(chapters: readonly Chapter[], chapterId: string | undefined): Chapter | undefined {
  return chapters.find((chapter) => chapter.id === chapterId);
}

export function findDay(
  chapters: readonly Chapter[],
  chapterId: string | undefined,
  dayId: string | undefined,
): { chapter: Chapter; day: Day } | undefined {
  const chapter = findChapter(chapters, chapterId);
  const day = chapter?.days.find((candidate) => candidate.id === dayId);
  return chapter && day ? { chapter, day } : undefined;
}

/** The day after this one in course order (across chapters), if any. */
export function dayAfter(
  chapters: readonly Chapter[],
  chapterId: string,
  dayId: string,
): { chapter: Chapter; day: Day } | undefined {
  const all = chapters.flatMap((chapter) => chapter.days.map((day) => ({ chapter, day })));
  const index = all.findIndex(({ chapter, day }) => chapter.id === chapterId && day.id === dayId);
  return index === -1 ? undefined : all[index + 1];
}

/** Every spoken item of a day with the audio file it plays: what the media generator makes. */
export function daySpokenItems(chapter: Chapter, day: Day): (SpokenLine & { audio: string; speaker?: string })[] {
  const withAudio = (line: SpokenLine & { speaker?: string }) => ({
    id: line.id,
    malay: line.malay,
    english: line.english,
    speaker: line.speaker,
    audio: courseAudioPath(chapter.id, day.id, line.id),
  });
  return [
    ...day.vocabulary.map(withAudio),
    ...(day.story?.sections ?? []).flatMap((section) => [
      ...section.narration.map(withAudio),
      ...section.lines.map(withAudio),
    ]),
    ...(day.codebook?.cards.items ?? []).map((card) =>
      withAudio({ id: card.id, malay: card.back, english: card.front }),
    ),
    ...(day.liveSession?.practice ?? []).flatMap((practice) => practice.phrases.map(withAudio)),
  ];
}

/** The recording of a whole section's dialogue that the Codebook's listen-and-shadow mission plays. */
export function dayDialogueRecordings(chapter: Chapter, day: Day) {
  return (day.story?.sections ?? [])
    .filter((section) => section.lines.length > 0 && day.codebook?.listen.sectionId === section.id)
    .map((section) => ({ section, audio: sectionDialogueAudioPath(chapter.id, day.id, section.id) }));
}
