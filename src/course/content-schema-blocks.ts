// What a day's pages are made of: spoken lines, glossary, video, tasks, blocks and the three pages.
import { z } from "zod";
import { speakable } from "./content-schema-spoken";
import { exerciseItemSchema } from "./exercise-schema";

/** Ids in URLs, in task_progress and in media file names: lower-case words joined by hyphens. */
export const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case words joined by hyphens");
/** Task ids name their part of the day: "story:read-setting", "codebook:review-vocab". */
const taskId = z.string().regex(/^(story|codebook|live-session|review):[a-z0-9]+(?:-[a-z0-9]+)*$/, {
  message: 'must look like "story:read-setting" (story, codebook, live-session or review, a colon, a slug)',
});
/** Media paths are served by the app itself: never a third-party host. */
const mediaPath = z
  .string()
  .regex(/^\/media\/[\w./-]+\.(opus|webm|mp3|mp4|vtt|webp|jpg|png)$/, "must be a /media/… file");
export const text = z.string().trim().min(1, "must not be empty");

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
 * `note` (when and how to say it) below; its words count towards the chapter's vocabulary. `also`:
 * the other forms a Malaysian says for it, which review's recall takes as right ("Satu lagi" beside
 * "Lagi satu"); the spellings the grader makes one (takpe, je, tapau: decision 065) need no listing.
 */
export const vocabularyEntrySchema = z
  .strictObject({
    ...spokenFields,
    // The card's note is also its review item's explain, one short line.
    note: text.max(200, "is one short line (at most 200 characters): it is the review card's explanation").optional(),
    also: z.array(text).min(1).optional(),
  })
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
/** A turn of the other character in a role-play done alone: a line spoken in their voice. */
const partnerTurnSchema = z
  .strictObject({ type: z.literal("partner"), ...spokenFields, speaker: text })
  .superRefine(speakable("malay"));
/** The learner's turn: one of the role-play's phrases, with a cue saying what to answer. */
const learnerTurnSchema = z.strictObject({ type: z.literal("learner"), phraseId: slug, cue: text });

/**
 * A live-session role-play the tutor runs, with phrases to listen to beforehand; the tutor marks its
 * task. Its `script` lets a learner do it alone (docs/decisions/047-speaking.md): the other
 * character's lines play, and at each learner turn the learner says the phrase its cue asks for.
 */
const rolePlayBlock = z
  .strictObject({
    type: z.literal("role-play"),
    ...missionFields,
    phrases: z.array(narrationSchema).min(1, "has at least one phrase"),
    script: z.array(z.discriminatedUnion("type", [partnerTurnSchema, learnerTurnSchema])).optional(),
  })
  .superRefine((block, context) => {
    if (!block.script) return;
    const phraseIds = new Set(block.phrases.map((phrase) => phrase.id));
    const said = new Set<string>();
    block.script.forEach((turn, index) => {
      if (turn.type !== "learner") return;
      said.add(turn.phraseId);
      if (!phraseIds.has(turn.phraseId)) {
        context.addIssue({
          code: "custom",
          path: ["script", index, "phraseId"],
          message: `"${turn.phraseId}" is not a phrase of this role-play`,
        });
      }
    });
    block.phrases.forEach((phrase, index) => {
      if (!said.has(phrase.id)) {
        context.addIssue({
          code: "custom",
          path: ["phrases", index, "id"],
          message: `"${phrase.id}" is never the learner's turn in the script`,
        });
      }
    });
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

/** A day's pages and vocabulary, as the day's checks (content-schema-day.ts) and src/course/day-blocks.ts read them. */
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
export type PracticeBlock = z.output<typeof practiceBlock>;
