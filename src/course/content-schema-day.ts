// A day and a chapter: their schemas and the checks across a day's blocks (tasks, spoken ids, practice audio).
import { z } from "zod";
import {
  codebookSchema,
  type DayPages,
  glossaryEntrySchema,
  liveSessionSchema,
  type PracticeBlock,
  slug,
  storySchema,
  type taskSchema,
  text,
  vocabularyEntrySchema,
} from "./content-schema-blocks";
import { dayBlocks, sectionLines, storySections } from "./day-blocks";
import { itemAudioReferences } from "./exercise-schema";

export const daySchema = z
  .strictObject({
    id: slug,
    number: z.number().int().positive(),
    subtopic: text,
    goal: text,
    requiresSignIn: z.boolean().default(false),
    vocabulary: z.array(vocabularyEntrySchema).default([]),
    glossary: z
      .array(glossaryEntrySchema)
      .default([])
      .superRefine((entries, context) => {
        const seen = new Set<string>();
        entries.forEach((entry, index) => {
          const key = entry.malay.toLowerCase();
          if (seen.has(key)) {
            context.addIssue({
              code: "custom",
              path: [index, "malay"],
              message: `"${entry.malay}" is in the glossary twice`,
            });
          }
          seen.add(key);
        });
      }),
    story: storySchema.optional(),
    codebook: codebookSchema.optional(),
    liveSession: liveSessionSchema.optional(),
  })
  .superRefine((day, context) => {
    const add = (path: (string | number)[], message: string) => context.addIssue({ code: "custom", path, message });
    // A task is recorded by one block only.
    const taskAt = new Map<string, string>();
    for (const { block, path } of dayBlocks(day)) {
      if (!("task" in block) || !block.task) continue;
      const previous = taskAt.get(block.task.id);
      if (previous) add([...path, "task", "id"], `"${block.task.id}" is already the task of ${previous}`);
      else taskAt.set(block.task.id, path.join("."));
    }
    for (const { block, path } of dayBlocks(day)) {
      if (block.type === "listen-shadow") {
        const section = storySections(day).find((candidate) => candidate.id === block.sectionId);
        if (!section || sectionLines(section).length === 0) {
          add([...path, "sectionId"], `"${block.sectionId}" is not a story section with dialogue lines`);
        }
      }
      if (block.type === "vocabulary-cards" && day.vocabulary.length === 0) {
        add([...path, "type"], "vocabulary cards need the day's vocabulary");
      }
      if (block.type === "practice") checkPracticeSet(day, block, path, add);
    }
    // Every spoken item and card names a file of its own within the day.
    const seen = new Set<string>();
    for (const { id, path } of spokenItemIds(day)) {
      if (seen.has(id)) add(path, `"${id}" is used twice in this day`);
      seen.add(id);
    }
  })
  // A day's tasks are its blocks' tasks, in page order (story, Codebook, live session).
  .transform((day) => ({ ...day, tasks: blockTasks(day) }));

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

type Path = (string | number)[];

type Task = z.output<typeof taskSchema>;

/** The tasks a day's blocks record, in page order (story, Codebook, live session). */
function blockTasks(day: Omit<DayPages, "vocabulary">): Task[] {
  return dayBlocks(day).flatMap(({ block }) => ("task" in block && block.task ? [block.task] : []));
}

type IdAt = { id: string; path: Path };
const idsAt = (items: readonly { id: string }[], at: Path): IdAt[] =>
  items.map((item, index) => ({ id: item.id, path: [...at, index, "id"] }));

/** Every id in a day that names an audio file, with where it is in the file (for error messages). */
function spokenItemIds(day: DayPages): IdAt[] {
  return [
    ...idsAt(day.vocabulary, ["vocabulary"]),
    ...dayBlocks(day).flatMap(({ block, path }): IdAt[] => {
      switch (block.type) {
        case "section":
          return [
            { id: block.id, path: [...path, "id"] },
            ...block.content.flatMap((content, index) =>
              content.type === "narration" || content.type === "dialogue"
                ? idsAt(content.lines, [...path, "content", index, "lines"])
                : [],
            ),
          ];
        case "role-play":
          return [
            ...idsAt(block.phrases, [...path, "phrases"]),
            ...(block.script ?? []).flatMap((turn, index) =>
              turn.type === "partner" ? [{ id: turn.id, path: [...path, "script", index, "id"] }] : [],
            ),
          ];
        default:
          return [];
      }
    }),
  ];
}

/** A practice set's item ids are unique; every item's `audio` names a spoken item of the day, whose clip it plays. */
function checkPracticeSet(
  day: DayPages,
  practice: PracticeBlock,
  at: Path,
  add: (path: Path, message: string) => void,
) {
  const itemIds = new Set<string>();
  practice.items.forEach((item, index) => {
    if (itemIds.has(item.id)) add([...at, "items", index, "id"], `"${item.id}" is used twice in this practice set`);
    itemIds.add(item.id);
  });
  const spoken = new Set(spokenItemIds(day).map(({ id }) => id));
  for (const { id, path } of itemAudioReferences(practice.items)) {
    if (!spoken.has(id)) {
      add(
        [...at, "items", ...path],
        `"${id}" is not a spoken item of this day (vocabulary, story line, card or role-play phrase)`,
      );
    }
  }
}

export type ChapterContent = z.infer<typeof chapterSchema>;
