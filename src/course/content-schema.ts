import { z } from "zod";
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

export const vocabularyEntrySchema = z.strictObject({ ...spokenFields }).superRefine(speakable("malay"));

/** A line of narration: a short Malay sentence that sets the scene, with its meaning. */
export const narrationSchema = z.strictObject({ ...spokenFields, label: text }).superRefine(speakable("malay"));

/** A line of dialogue. `speaker` picks the voice the audio is generated with. */
export const dialogueLineSchema = z.strictObject({ ...spokenFields, speaker: text }).superRefine(speakable("malay"));

/** A Codebook phrase card: English on the front, Malay on the back (spoken: `say` if given), with a note on use. */
export const phraseCardSchema = z
  .strictObject({
    id: slug,
    front: text,
    back: text,
    /** How `back` is spoken, as a spoken item's `say`. */
    say: text.optional(),
    description: text,
  })
  .superRefine(speakable("back"));

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

export const storySectionSchema = z.strictObject({
  id: slug,
  /** The task the section's completion button records. */
  taskId,
  title: text,
  subtitle: text.optional(),
  narration: z.array(narrationSchema).default([]),
  /** Story text in English, shown above the dialogue. */
  paragraphs: z.array(text).default([]),
  lines: z.array(dialogueLineSchema).default([]),
  /** The completion button's label, e.g. "Complete Section" or "Mark as Complete". */
  completeLabel: text,
});

export const storySchema = z.strictObject({
  sections: z.array(storySectionSchema).min(1, "a story has at least one section"),
  /**
   * Where the story leads once done: `codebook` shows Continue to Codebook, enabled when every
   * section is complete (day 1); `journey` returns to My Journey right after completing (days 2-4).
   */
  next: z.enum(["codebook", "journey"]),
});

export const codebookSchema = z.strictObject({
  /** Listen and shadow: completes its task when the recording of a story section's dialogue ends. */
  listen: z.strictObject({ taskId, title: text, description: text, sectionId: slug }),
  /** The culture and grammar video: completes its task when it ends; locked until listening is done. */
  notes: z.strictObject({ taskId, title: text, description: text, video: videoSchema }),
  /** Phrase cards: locked until the notes are done; completes its task once every card is flipped. */
  cards: z.strictObject({
    taskId,
    title: text,
    description: text,
    items: z.array(phraseCardSchema).min(1, "a Codebook has at least one card"),
  }),
  /**
   * A practice set of graded items (src/course/exercise-schema.ts): its task is completed by the
   * server once every item has been answered right, never by a bare status write.
   */
  practice: z
    .strictObject({
      taskId,
      title: text,
      description: text,
      items: z.array(exerciseItemSchema).min(1, "a practice set has at least one item"),
    })
    .optional(),
});

/** The learner's view of a live session: what it practises, with phrases to listen to beforehand. */
export const liveSessionSchema = z.strictObject({
  intro: text,
  practice: z
    .array(z.strictObject({ taskId, title: text, description: text, phrases: z.array(narrationSchema).min(1) }))
    .min(1),
});

export const taskSchema = z.strictObject({
  id: taskId,
  label: text,
});

export const daySchema = z
  .strictObject({
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
    const taskIds = new Set(day.tasks.map((task) => task.id));
    const requireTask = (id: string, path: (string | number)[]) => {
      if (!taskIds.has(id))
        context.addIssue({ code: "custom", path, message: `"${id}" is not one of the day's tasks` });
    };
    day.story?.sections.forEach((section, index) => {
      requireTask(section.taskId, ["story", "sections", index, "taskId"]);
    });
    if (day.codebook) {
      const { listen, notes, cards } = day.codebook;
      requireTask(listen.taskId, ["codebook", "listen", "taskId"]);
      requireTask(notes.taskId, ["codebook", "notes", "taskId"]);
      requireTask(cards.taskId, ["codebook", "cards", "taskId"]);
      const section = day.story?.sections.find((candidate) => candidate.id === listen.sectionId);
      if (!section || section.lines.length === 0) {
        context.addIssue({
          code: "custom",
          path: ["codebook", "listen", "sectionId"],
          message: `"${listen.sectionId}" is not a story section with dialogue lines`,
        });
      }
    }
    day.liveSession?.practice.forEach((practice, index) => {
      requireTask(practice.taskId, ["liveSession", "practice", index, "taskId"]);
    });
    if (day.codebook?.practice) checkPracticeSet(day, day.codebook.practice, context);
    // Every spoken item and card names a file of its own within the day.
    const seen = new Set<string>();
    for (const { id, path } of spokenItemIds(day)) {
      if (seen.has(id)) context.addIssue({ code: "custom", path, message: `"${id}" is used twice in this day` });
      seen.add(id);
    }
  });

export const chapterSchema = z
  .strictObject({
    id: slug,
    number: z.number().int().positive(),
    title: text,
    description: text,
    /** Shown as a Coming Soon chapter: its days are an outline until their content is written. */
    comingSoon: z.boolean().default(false),
    days: z.array(daySchema).min(1, "a chapter has at least one day"),
  })
  .refine((chapter) => new Set(chapter.days.map((day) => day.id)).size === chapter.days.length, {
    message: "day ids must be unique within a chapter",
    path: ["days"],
  });

type DayInput = z.infer<typeof daySchema>;

type IdAt = { id: string; path: (string | number)[] };
const idsAt = (items: readonly { id: string }[], at: (string | number)[]): IdAt[] =>
  items.map((item, index) => ({ id: item.id, path: [...at, index, "id"] }));

/** Every id in a day that names an audio file, with where it is in the file (for error messages). */
function spokenItemIds(day: DayInput): IdAt[] {
  return [
    ...idsAt(day.vocabulary, ["vocabulary"]),
    ...(day.story?.sections ?? []).flatMap((section, index) => {
      const at = ["story", "sections", index];
      return [
        { id: section.id, path: [...at, "id"] },
        ...idsAt(section.narration, [...at, "narration"]),
        ...idsAt(section.lines, [...at, "lines"]),
      ];
    }),
    ...idsAt(day.codebook?.cards.items ?? [], ["codebook", "cards", "items"]),
    ...(day.liveSession?.practice ?? []).flatMap((practice, index) =>
      idsAt(practice.phrases, ["liveSession", "practice", index, "phrases"]),
    ),
  ];
}

type PracticeInput = NonNullable<NonNullable<DayInput["codebook"]>["practice"]>;

/**
 * A practice set's task is one of the day's tasks and belongs to no other block (a task completed by
 * answering cannot also be completed by a button); its item ids are unique; every item's `audio`
 * names a spoken item of the day, whose clip it plays.
 */
function checkPracticeSet(day: DayInput, practice: PracticeInput, context: z.RefinementCtx) {
  const at = ["codebook", "practice"];
  if (!day.tasks.some((task) => task.id === practice.taskId)) {
    context.addIssue({
      code: "custom",
      path: [...at, "taskId"],
      message: `"${practice.taskId}" is not one of the day's tasks`,
    });
  }
  const otherBlocks = [
    ...(day.story?.sections ?? []).map((section) => section.taskId),
    day.codebook?.listen.taskId,
    day.codebook?.notes.taskId,
    day.codebook?.cards.taskId,
    ...(day.liveSession?.practice ?? []).map((block) => block.taskId),
  ];
  if (otherBlocks.includes(practice.taskId)) {
    context.addIssue({
      code: "custom",
      path: [...at, "taskId"],
      message: `"${practice.taskId}" is completed by another block of the day; a practice set needs a task of its own`,
    });
  }
  const itemIds = new Set<string>();
  practice.items.forEach((item, index) => {
    if (itemIds.has(item.id)) {
      context.addIssue({
        code: "custom",
        path: [...at, "items", index, "id"],
        message: `"${item.id}" is used twice in this practice set`,
      });
    }
    itemIds.add(item.id);
  });
  const spoken = new Set(spokenItemIds(day).map(({ id }) => id));
  for (const { id, path } of itemAudioReferences(practice.items)) {
    if (!spoken.has(id)) {
      context.addIssue({
        code: "custom",
        path: [...at, "items", ...path],
        message: `"${id}" is not a spoken item of this day (vocabulary, story line or card)`,
      });
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
