import { z } from "zod";
import { dayBlocks, sectionLines, storySections } from "./day-blocks.ts";
import { exerciseItemSchema, itemAudioReferences } from "./exercise-schema.ts";

/** Ids in URLs, in task_progress and in media file names: lower-case words joined by hyphens. */
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

/**
 * Something said in Malay. Its audio is generated from `say` when given, else from `malay`
 * (scripts/media/course-audio.mjs), and served from `courseAudioPath(chapter, day, id)`.
 */
const spokenFields = {
  /** Unique within its day: names the audio file. */
  id: slug,
  malay: text,
  english: text,
  /**
   * How the line is spoken, used only for its audio and never shown: numbers and prices in words, and
   * espeak-ng phonemes in [[...]] for a word its Malay voice reads wrongly ("Nasi [[l@m'a?]] satu.").
   */
  say: text.optional(),
};

/**
 * A phrase the day teaches: its phrase card shows `english` on the front and `malay` on the back, with
 * `note` (when and how to say it) below; its words count towards the chapter's vocabulary.
 */
export const vocabularyEntrySchema = z
  .strictObject({ ...spokenFields, note: text.optional() })
  .superRefine(speakable("malay"));

/** A line of narration: a short Malay sentence that sets the scene, with its meaning. */
export const narrationSchema = z.strictObject({ ...spokenFields, label: text }).superRefine(speakable("malay"));

/** A line of dialogue. `speaker` picks the voice the audio is generated with. */
export const dialogueLineSchema = z.strictObject({ ...spokenFields, speaker: text }).superRefine(speakable("malay"));

/**
 * A word or phrase of a day's story with its meaning, shown when the learner taps or focuses it.
 * `malay` is the form as it appears in the story (matched ignoring case; a phrase matches as one unit).
 * Not spoken, so it has no id and no audio.
 */
export const glossaryEntrySchema = z.strictObject({ malay: text, english: text, note: text.optional() });

export const videoSchema = z.strictObject({
  title: text,
  webm: mediaPath,
  mp4: mediaPath,
  captions: mediaPath,
  poster: mediaPath,
});

/**
 * The task a block records: its id (stored in task_progress, named in the spec for days 1-4) and the
 * label staff and My Journey show. A day's tasks are the tasks of its blocks, in page order.
 */
export const taskSchema = z.strictObject({ id: taskId, label: text });

// ------------------------------------------------------------------ blocks a page is made of

/** Lines of narration that set the scene, each spoken. */
const narrationBlock = z.strictObject({ type: z.literal("narration"), lines: z.array(narrationSchema).min(1) });
/** Story text in English. */
const paragraphsBlock = z.strictObject({ type: z.literal("paragraphs"), paragraphs: z.array(text).min(1) });
/** Lines of dialogue, each spoken in its speaker's voice. */
const dialogueBlock = z.strictObject({ type: z.literal("dialogue"), lines: z.array(dialogueLineSchema).min(1) });
/** A note on culture or usage: a title and English paragraphs. */
const cultureNoteBlock = z.strictObject({
  type: z.literal("culture-note"),
  title: text,
  paragraphs: z.array(text).min(1),
});

/** What a story section holds, in order. */
const sectionContentBlock = z.discriminatedUnion("type", [
  narrationBlock,
  paragraphsBlock,
  dialogueBlock,
  cultureNoteBlock,
]);

/**
 * A part of a day's story, with its own completion button (`completeLabel`, e.g. "Complete Section"
 * or "Mark as Complete") recording `task`, or without either: a review day's dialogue is listened to,
 * and its quiz is the day's task.
 */
const sectionBlock = z
  .strictObject({
    type: z.literal("section"),
    /** Unique within its day: names the recording of the section's whole dialogue. */
    id: slug,
    task: taskSchema.optional(),
    title: text,
    subtitle: text.optional(),
    completeLabel: text.optional(),
    /**
     * How the recording of the whole dialogue is paced: `shadow` (the default) at learning speed with a
     * pause after each line to repeat it in, for listen-and-shadow; `natural` at conversation speed,
     * played on the story page of a review day. Each line's own clip is at learning speed either way.
     */
    pace: z.enum(["shadow", "natural"]).default("shadow"),
    content: z.array(sectionContentBlock).min(1, "a section has at least one block"),
  })
  .refine((section) => (section.task === undefined) === (section.completeLabel === undefined), {
    message: "a section has both a task and a completeLabel, or neither",
    path: ["completeLabel"],
  });

/** Fields of every block that is a mission: its heading and what to do. */
const missionFields = { task: taskSchema, title: text, description: text };

/** Listen and shadow: the whole dialogue of the story section `sectionId`; completes when it has played to the end. */
const listenShadowBlock = z.strictObject({ type: z.literal("listen-shadow"), ...missionFields, sectionId: slug });
/** A captioned culture and grammar video: completes when it ends. */
const videoBlock = z.strictObject({ type: z.literal("video"), ...missionFields, video: videoSchema });
/** The day's vocabulary as phrase cards to flip: completes once every card is flipped. */
const vocabularyCardsBlock = z.strictObject({ type: z.literal("vocabulary-cards"), ...missionFields });
/**
 * A practice set of graded items (src/course/exercise-schema.ts): its task is completed by the
 * server once every item has been answered right, never by a bare status write.
 */
const practiceBlock = z.strictObject({
  type: z.literal("practice"),
  ...missionFields,
  items: z.array(exerciseItemSchema).min(1, "a practice set has at least one item"),
});
/** A live-session role-play the tutor runs, with phrases to listen to beforehand; the tutor marks its task. */
const rolePlayBlock = z.strictObject({
  type: z.literal("role-play"),
  ...missionFields,
  phrases: z.array(narrationSchema).min(1, "has at least one phrase"),
});

export const storyBlockSchema = z.discriminatedUnion("type", [sectionBlock, cultureNoteBlock, practiceBlock]);
export const codebookBlockSchema = z.discriminatedUnion("type", [
  listenShadowBlock,
  videoBlock,
  vocabularyCardsBlock,
  practiceBlock,
]);
export const liveSessionBlockSchema = z.discriminatedUnion("type", [rolePlayBlock]);

const blocks = <Block extends z.ZodType>(block: Block) => z.array(block).min(1, "a page has at least one block");

/** The day's first page. */
export const storySchema = z.strictObject({
  /**
   * Where the story leads once done: `codebook` shows Continue to Codebook, enabled when every section
   * is complete (day 1); `journey` returns to My Journey right after a section is completed and links
   * to the day's Codebook and live session if it has them (days 2-4), or back to My Journey (the last
   * review day); `next-chapter` links on to the next chapter (a chapter's review day).
   */
  next: z.enum(["codebook", "journey", "next-chapter"]).default("journey"),
  blocks: blocks(storyBlockSchema),
});

/** The Codebook: its missions in order, each locked until the one before it is done. */
export const codebookSchema = z.strictObject({ blocks: blocks(codebookBlockSchema) });

/** The learner's view of a live session: what it practises, with phrases to listen to beforehand. */
export const liveSessionSchema = z.strictObject({ intro: text.optional(), blocks: blocks(liveSessionBlockSchema) });

export { PAGES, type PageName } from "./day-blocks.ts";

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

/** A day's pages and vocabulary, as the checks below (and src/course/day-blocks.ts) read them. */
export interface DayPages {
  vocabulary: readonly z.output<typeof vocabularyEntrySchema>[];
  story?: z.output<typeof storySchema> | undefined;
  codebook?: z.output<typeof codebookSchema> | undefined;
  liveSession?: z.output<typeof liveSessionSchema> | undefined;
}
export type AnyBlock =
  | z.output<typeof storyBlockSchema>
  | z.output<typeof codebookBlockSchema>
  | z.output<typeof liveSessionBlockSchema>;
export type Section = z.output<typeof sectionBlock>;
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
          return idsAt(block.phrases, [...path, "phrases"]);
        default:
          return [];
      }
    }),
  ];
}

type PracticeInput = z.output<typeof practiceBlock>;

/** A practice set's item ids are unique; every item's `audio` names a spoken item of the day, whose clip it plays. */
function checkPracticeSet(
  day: DayPages,
  practice: PracticeInput,
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

// ------------------------------------------------------------------ spoken text the voice reads wrongly

/**
 * Words espeak-ng's Malay voice (`espeak-ng -v ms -x WORD` prints its phonemes) reads wrongly, with
 * what it says and how a `say` text writes them: inline phonemes in [[...]]. Most read an e as the
 * open e of "teh" where Malay has a schwa (teksi is the other way round, semuanya loses its a). With a
 * suffix most are read right (sedapnya, lemaknya). docs/decisions/031 has the list and how it was checked.
 */
export const MISREAD_WORDS: readonly { word: string; heard: string; say: string }[] = [
  { word: "lemak", heard: "l'Ema?", say: "[[l@m'a?]]" },
  { word: "belas", heard: "b'Elas", say: "[[b@l'as]]" },
  { word: "sebelas", heard: "s@b'Elas", say: "[[s@b@l'as]]" },
  { word: "sedap", heard: "s'Edap", say: "[[s@d'ap]]" },
  { word: "senang", heard: "s'EnaN", say: "[[s@n'aN]]" },
  { word: "pedas", heard: "p'Edas", say: "[[p@d'as]]" },
  { word: "sekejap", heard: "s@k'EdZap", say: "[[s@k@dZ'ap]]" },
  { word: "kejap", heard: "k'EdZap", say: "[[k@dZ'ap]]" },
  { word: "seberang", heard: "s@b'ERaN", say: "[[s@b@R'aN]]" },
  { word: "gelas", heard: "g'Elas", say: "[[g@l'as]]" },
  { word: "teksi", heard: "t'@ksi", say: "[[t'Eksi]]" },
  { word: "teksinya", heard: "t@ks'in^@", say: "[[tEks'in^@]]" },
  { word: "semuanya", heard: "s@mu'@n^@", say: "[[s@mu'an^@]]" },
  { word: "pesan", heard: "p'Esan", say: "[[p@s'an]]" },
  { word: "belok", heard: "b'Elo?", say: "[[b@l'o?]]" },
  { word: "sesak", heard: "s'Esa?", say: "[[s@s'a?]]" },
  { word: "merah", heard: "m'ERah", say: "[[m@R'ah]]" },
  { word: "kenyang", heard: "k'En^aN", say: "[[k@n^'aN]]" },
  { word: "sibuk", heard: "s'ebok", say: "[[s'ibo?]]" },
  // Loanwords, said as Malaysians say them.
  { word: "milo", heard: "m'ilo", say: "[[m'aIlo]]" },
  { word: "grab", heard: "gR'ab", say: "[[gR'Eb]]" },
  { word: "ok", heard: "'o?", say: "[[ok'e]]" },
  { word: "oklah", heard: "'o: kl'ah", say: "[[ok'elah]]" },
];

/** Phonemes in [[...]] are passed to the voice as they are: nothing in them is read as a word or a number. */
const outsidePhonemes = (spoken: string) => spoken.replace(/\[\[[^\]]*\]\]/g, " ");

/**
 * What in a spoken text the voice would read wrongly: "RM 8" ("ringgit lapan"), "2.50" ("dua titik
 * lima puluh"), "1,000" (a decimal), "x2", any digit, and the MISREAD_WORDS. Each is the text found
 * and how to say it instead.
 */
export function misreadings(spoken: string): { found: string; fix: string }[] {
  const plain = outsidePhonemes(spoken);
  const found: { found: string; fix: string }[] = [];
  const price = /(?<!\p{L})RM(?!\p{L})\s*[\d.,]*/iu.exec(plain);
  const times = /(?<!\p{L})[x×]\s?\d+(?![\d.,])|\d+\s?[x×](?!\p{L})/iu.exec(plain);
  const number = /\d(?:[\d.,]*\d)?/u.exec(plain);
  if (price) found.push({ found: price[0].trim(), fix: 'the price in words ("tujuh ringgit lima puluh sen")' });
  else if (times) found.push({ found: times[0], fix: 'the quantity in words ("teh tarik dua")' });
  else if (number) found.push({ found: number[0], fix: "the number in words" });
  for (const word of plain.split(/[^\p{L}]+/u)) {
    const misread = MISREAD_WORDS.find((candidate) => candidate.word === word.toLowerCase());
    if (misread) found.push({ found: word, fix: `${misread.say} for "${word}" (it says ${misread.heard})` });
  }
  return found;
}

/**
 * Refuses a spoken item whose audio would say it wrongly: its shown Malay (`malay`, or a card's
 * `back`) when it has no `say`, or its `say`. The issue names the field to fix.
 */
function speakable<Field extends string>(shown: Field) {
  return (item: Record<Field, string> & { say?: string | undefined }, context: z.RefinementCtx) => {
    const field = item.say === undefined ? shown : "say";
    for (const { found, fix } of misreadings(item.say ?? item[shown])) {
      context.addIssue({
        code: "custom",
        path: [field],
        message:
          field === "say"
            ? `"${found}" is read wrongly by the speech voice; write ${fix}`
            : `"${found}" is read wrongly by the speech voice; add a "say" text with ${fix}`,
      });
    }
  };
}
