// The course content schema's entry: validating chapter files; the schemas are in content-schema-*.ts.
import { type ChapterContent, chapterSchema } from "./content-schema-day";

export {
  type AnyBlock,
  codebookBlockSchema,
  codebookSchema,
  type DayPages,
  dialogueLineSchema,
  glossaryEntrySchema,
  liveSessionBlockSchema,
  liveSessionSchema,
  narrationSchema,
  type Section,
  storyBlockSchema,
  storySchema,
  taskSchema,
  videoSchema,
  vocabularyEntrySchema,
} from "./content-schema-blocks";
export { type ChapterContent, chapterSchema, daySchema } from "./content-schema-day";
export { MISREAD_WORDS, misreadings } from "./content-schema-spoken";
export { PAGES, type PageName } from "./day-blocks";

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
export function parseChapters(files: ReadonlyArray<{ file: string; data: unknown }>): ChapterContent[] {
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
