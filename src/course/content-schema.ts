import { z } from "zod";

/** Ids in URLs and in task_progress: lower-case words joined by hyphens, like "chapter-1" or "day-6". */
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case words joined by hyphens");
/** Task ids name their part of the day: "story:read-setting", "codebook:review-vocab". */
const taskId = z.string().regex(/^(story|codebook|live-session|review):[a-z0-9]+(?:-[a-z0-9]+)*$/, {
  message: 'must look like "story:read-setting" (story, codebook, live-session or review, a colon, a slug)',
});
/** Media paths are served by the app itself: never a third-party host. */
const mediaPath = z
  .string()
  .regex(/^\/media\/[\w./-]+\.(opus|webm|mp3|mp4|vtt|webp|jpg|png)$/, "must be a /media/… file");
const text = z.string().trim().min(1, "must not be empty");

export const vocabularyEntrySchema = z.strictObject({
  malay: text,
  english: text,
  audio: mediaPath.optional(),
});

export const taskSchema = z.strictObject({
  id: taskId,
  label: text,
});

export const daySchema = z.strictObject({
  id: slug,
  number: z.number().int().positive(),
  subtopic: text,
  goal: text,
  /** False for a day shown in the table whose content is not written yet. */
  available: z.boolean().default(true),
  requiresSignIn: z.boolean().default(false),
  tasks: z.array(taskSchema).refine((tasks) => new Set(tasks.map((task) => task.id)).size === tasks.length, {
    message: "task ids must be unique within a day",
  }),
  vocabulary: z.array(vocabularyEntrySchema).default([]),
});

export const chapterSchema = z
  .strictObject({
    id: slug,
    number: z.number().int().positive(),
    title: text,
    description: text,
    days: z.array(daySchema).min(1, "a chapter has at least one day"),
  })
  .refine((chapter) => new Set(chapter.days.map((day) => day.id)).size === chapter.days.length, {
    message: "day ids must be unique within a chapter",
    path: ["days"],
  });

export type VocabularyEntry = z.infer<typeof vocabularyEntrySchema>;
export type Task = z.infer<typeof taskSchema>;
export type Day = z.infer<typeof daySchema>;
export type Chapter = z.infer<typeof chapterSchema>;

export class ContentError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file} is not valid course content:\n${problems.map((line) => `  ${line}`).join("\n")}`);
    this.name = "ContentError";
  }
}

/**
 * Validates the chapter files, given in course order. Every problem names its file and the path of
 * the bad field, e.g. `content/chapter-1.json: days.0.tasks.2.id: must look like …`.
 */
export function parseChapters(files: ReadonlyArray<{ file: string; data: unknown }>): Chapter[] {
  const chapters = files.map(({ file, data }) => {
    const parsed = chapterSchema.safeParse(data);
    if (!parsed.success) {
      throw new ContentError(
        file,
        parsed.error.issues.map((issue) => `${issue.path.join(".") || "(file)"}: ${issue.message}`),
      );
    }
    return parsed.data;
  });
  const dayNumbers = chapters.flatMap((chapter) => chapter.days.map((day) => day.number));
  dayNumbers.forEach((number, index) => {
    if (index > 0 && number <= dayNumbers[index - 1]!) {
      throw new ContentError(files[0]?.file ?? "content", [
        `day numbers must increase through the course (${number} after ${dayNumbers[index - 1]})`,
      ]);
    }
  });
  return chapters;
}
