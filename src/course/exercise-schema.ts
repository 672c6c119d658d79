import { z } from "zod";
import { expandAnswer, NotationError } from "./answer-notation";
import { MAX_TYPED_LENGTH, parsePrice } from "./answer-text";

/**
 * Graded exercise items (/work/shared/CONTENT.md, "Exercise types") and the answers a learner gives
 * to them. A practice set is a block of a day's page (`practice` in content-schema.ts): a task whose
 * items the learner answers, graded by src/course/grading.ts on the server and in the browser.
 */

// The same rules as content-schema.ts's ids and text, which imports this file.
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "must be lower-case words joined by hyphens");
const text = z.string().trim().min(1, "must not be empty");

const price = z.string().refine((value) => parsePrice(value) !== null, 'must be a price such as "RM 7.50"');

/** A choice of a choose-one item: its id is what the learner's answer names. */
const choiceSchema = z.strictObject({ id: slug, text });
/** A word tile of build-the-sentence; two tiles may carry the same word. */
const tileSchema = z.strictObject({ id: slug, text });
/** A pair of match-pairs: the learner links each Malay side to its English side. */
const pairSchema = z.strictObject({ id: slug, malay: text, english: text });

/**
 * Fields every item has. `audio` names a spoken item of the same day (a vocabulary entry, a story
 * line, a card): the clip the learner hears for listening items, and the right answer's clip in the
 * feedback of every item. Its file is courseAudioPath(chapter, day, audio), so items need no media
 * of their own.
 */
const itemFields = {
  /** Unique within its practice set. */
  id: slug,
  /** The instruction or question shown above the item. */
  prompt: text,
};
/**
 * Fields of an item that a question leaves out: `explain` says in one short line (English) why the
 * right answer is right, shown with the feedback after a wrong or near answer; optional, for items
 * whose reason is not obvious.
 */
const answerFields = {
  explain: text.max(200, "is one short line (at most 200 characters)").optional(),
};
/**
 * Written answers, expanded: each may use the compact notation of answer-notation.ts ("[x]"
 * optional, "{a|b}" one of, "{a ~ b}" either order), and stands for every answer it spells out.
 */
function expanded(answer: string, index: number, context: z.RefinementCtx, options = { sentence: false }): string[] {
  try {
    return expandAnswer(answer, options);
  } catch (error) {
    if (!(error instanceof NotationError)) throw error;
    context.addIssue({ code: "custom", path: [index], message: `"${answer}": ${error.message}` });
    return [];
  }
}

/** Answers without repeats, kept in the order written. */
const unique = <T>(answers: readonly T[]): T[] => [
  ...new Map(answers.map((answer) => [JSON.stringify(answer), answer])).values(),
];

const listenedTo = slug;
const rightAnswerAudio = slug.optional();

type IssueAdder = (path: (string | number)[], message: string) => void;

function checkUnique(ids: readonly string[], at: string, add: IssueAdder, what: string) {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) add([at, index, "id"], `${what} "${id}" is used twice in this item`);
    seen.add(id);
  });
}

function refineChoices(item: { choices: readonly { id: string }[]; answer: string }, context: z.RefinementCtx): void {
  const add: IssueAdder = (path, message) => context.addIssue({ code: "custom", path, message });
  checkUnique(
    item.choices.map((choice) => choice.id),
    "choices",
    add,
    "choice",
  );
  if (!item.choices.some((choice) => choice.id === item.answer)) {
    add(["answer"], `"${item.answer}" is not one of the item's choices`);
  }
}

/** Comprehension: a question about the story, 3-4 choices, one right. */
export const comprehensionItemSchema = z
  .strictObject({
    ...itemFields,
    ...answerFields,
    kind: z.literal("comprehension"),
    choices: z.array(choiceSchema).min(3, "has 3 or 4 choices").max(4, "has 3 or 4 choices"),
    answer: slug,
    audio: rightAnswerAudio,
  })
  .superRefine(refineChoices);

/** Listen and choose: hear a line (`audio`), pick its meaning or the Malay heard. */
export const listenChooseItemSchema = z
  .strictObject({
    ...itemFields,
    ...answerFields,
    kind: z.literal("listen-choose"),
    audio: listenedTo,
    choices: z.array(choiceSchema).min(2, "has 2 to 4 choices").max(4, "has 2 to 4 choices"),
    answer: slug,
  })
  .superRefine(refineChoices);

/**
 * Build the sentence: English shown, Malay built from word tiles (some may be extra). Each of
 * `answers` is a right order of tile ids, the first shown in feedback; orders are compared by the
 * tiles' words, so two tiles with the same word are interchangeable.
 */
export const buildSentenceItemSchema = z
  .strictObject({
    ...itemFields,
    ...answerFields,
    kind: z.literal("build-sentence"),
    english: text,
    tiles: z.array(tileSchema).min(2, "has 2 to 16 tiles").max(16, "has 2 to 16 tiles"),
    // An order is a list of tile ids, or tile ids in one string with the compact notation
    // ("{dua ~ kopi-c panas}").
    answers: z
      .array(z.union([z.array(slug).min(1), text]))
      .min(1, "lists at least one right order")
      .transform((orders, context) =>
        unique(
          orders.flatMap((order, index) =>
            typeof order === "string" ? expanded(order, index, context).map((form) => form.split(" ")) : [order],
          ),
        ),
      ),
    audio: rightAnswerAudio,
  })
  .superRefine((item, context) => {
    const add: IssueAdder = (path, message) => context.addIssue({ code: "custom", path, message });
    checkUnique(
      item.tiles.map((tile) => tile.id),
      "tiles",
      add,
      "tile",
    );
    const tileIds = new Set(item.tiles.map((tile) => tile.id));
    item.answers.forEach((order, answerIndex) => {
      order.forEach((id, index) => {
        if (!tileIds.has(id)) add(["answers", answerIndex, index], `"${id}" is not one of the item's tiles`);
        else if (order.indexOf(id) !== index) add(["answers", answerIndex, index], `tile "${id}" is used twice`);
      });
    });
  });

/**
 * Accepted typed answers: the first is the form feedback shows when nothing was close. Each may use
 * the compact notation (answer-notation.ts).
 */
const typedAnswers = z
  .array(text)
  .min(1, "lists at least one right answer")
  .transform((written, context) =>
    unique(written.flatMap((answer, index) => expanded(answer, index, context, { sentence: true }))),
  );

/** Type what you hear: the Malay of the clip `audio`, typed. */
export const typeHeardItemSchema = z.strictObject({
  ...itemFields,
  ...answerFields,
  kind: z.literal("type-heard"),
  audio: listenedTo,
  answers: typedAnswers,
});

/** Type the Malay: English shown, the Malay typed; every listed answer is right. */
export const typeMalayItemSchema = z.strictObject({
  ...itemFields,
  ...answerFields,
  kind: z.literal("type-malay"),
  english: text,
  answers: typedAnswers,
  audio: rightAnswerAudio,
});

/** Match pairs: every Malay side linked to its English side. */
export const matchPairsItemSchema = z
  .strictObject({
    ...itemFields,
    ...answerFields,
    kind: z.literal("match-pairs"),
    pairs: z.array(pairSchema).min(2, "has 2 to 8 pairs").max(8, "has 2 to 8 pairs"),
  })
  .superRefine((item, context) => {
    checkUnique(
      item.pairs.map((pair) => pair.id),
      "pairs",
      (path, message) => context.addIssue({ code: "custom", path, message }),
      "pair",
    );
  });

/** Numbers and prices, heard: the clip `audio` says a price; the learner types it ("RM 7.50"). */
export const typePriceItemSchema = z.strictObject({
  ...itemFields,
  ...answerFields,
  kind: z.literal("type-price"),
  audio: listenedTo,
  price,
});

/** Numbers and prices, seen: `price` shown; the learner chooses how it is said. */
export const choosePriceItemSchema = z
  .strictObject({
    ...itemFields,
    ...answerFields,
    kind: z.literal("choose-price"),
    price,
    choices: z.array(choiceSchema).min(2, "has 2 to 4 choices").max(4, "has 2 to 4 choices"),
    answer: slug,
    audio: rightAnswerAudio,
  })
  .superRefine(refineChoices);

/**
 * Reply in dialogue: the learner hears a line said to Alex in the story's situation (`audio`, a spoken
 * item of the day) and answers it: by choosing one of `choices` (Malay replies), or by typing, where
 * every one of `answers` is right. `prompt` says the situation and what to answer; `replyAudio`, when
 * the day has a clip of the right reply, is played with the feedback.
 * docs/decisions/057-reply-in-dialogue.md.
 */
const replyFields = {
  audio: listenedTo,
  replyAudio: rightAnswerAudio,
};

export const replyChooseItemSchema = z
  .strictObject({
    ...itemFields,
    ...answerFields,
    ...replyFields,
    kind: z.literal("reply-choose"),
    choices: z.array(choiceSchema).min(2, "has 2 to 4 choices").max(4, "has 2 to 4 choices"),
    answer: slug,
  })
  .superRefine(refineChoices);

export const replyTypeItemSchema = z.strictObject({
  ...itemFields,
  ...answerFields,
  ...replyFields,
  kind: z.literal("reply-type"),
  answers: typedAnswers,
});

export const exerciseItemSchema = z.discriminatedUnion("kind", [
  comprehensionItemSchema,
  listenChooseItemSchema,
  buildSentenceItemSchema,
  typeHeardItemSchema,
  typeMalayItemSchema,
  matchPairsItemSchema,
  typePriceItemSchema,
  choosePriceItemSchema,
  replyChooseItemSchema,
  replyTypeItemSchema,
]);

export type ExerciseItem = z.output<typeof exerciseItemSchema>;
export type ExerciseKind = ExerciseItem["kind"];
export const EXERCISE_KINDS = exerciseItemSchema.options.map((option) => option.shape.kind.value);

// ------------------------------------------------------------------ questions

/**
 * Items as questions: what a learner is shown to answer one (its prompt, choices, tiles, the English
 * to put in Malay, the clip to listen to) and nothing that tells the right answer: no `answer` or
 * `answers`, and no right answer's clip. Review serves its cards this way, and the right answer
 * comes back only with the grade (docs/decisions/039-review-deck.md). Only the kinds review asks
 * have a question.
 */
export const exerciseQuestionSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    ...itemFields,
    kind: z.literal("comprehension"),
    choices: z.array(choiceSchema).min(3).max(4),
  }),
  z.strictObject({
    ...itemFields,
    kind: z.literal("listen-choose"),
    audio: listenedTo,
    choices: z.array(choiceSchema).min(2).max(4),
  }),
  z.strictObject({
    ...itemFields,
    kind: z.literal("build-sentence"),
    english: text,
    tiles: z.array(tileSchema).min(2).max(16),
  }),
  z.strictObject({ ...itemFields, kind: z.literal("type-malay"), english: text }),
  // A spoken review card (review-speaking.ts): self-rated, so its Malay and model come with it.
  z.strictObject({ ...itemFields, kind: z.literal("say-malay"), english: text, malay: text, audio: listenedTo }),
]);

export type ExerciseQuestion = z.output<typeof exerciseQuestionSchema>;
export type QuestionKind = ExerciseQuestion["kind"];

/**
 * An item as its question. Fields are copied one by one, so a field added to an item later stays
 * on the server until it is added here.
 */
export function questionOf(item: Extract<ExerciseItem, { kind: QuestionKind }>): ExerciseQuestion {
  const { id, prompt } = item;
  switch (item.kind) {
    case "comprehension":
      return { id, prompt, kind: item.kind, choices: item.choices };
    case "listen-choose":
      return { id, prompt, kind: item.kind, audio: item.audio, choices: item.choices };
    case "build-sentence":
      return { id, prompt, kind: item.kind, english: item.english, tiles: item.tiles };
    case "type-malay":
      return { id, prompt, kind: item.kind, english: item.english };
  }
}

// What a learner gives. Ids are bounded here and checked against the item in grading.ts.
const givenId = z.string().min(1).max(100);

export const choiceGivenSchema = z.strictObject({ choiceId: givenId });
export const tilesGivenSchema = z.strictObject({ tileIds: z.array(givenId).min(1).max(16) });
export const textGivenSchema = z.strictObject({
  text: z
    .string()
    .max(MAX_TYPED_LENGTH, `The answer can be at most ${MAX_TYPED_LENGTH} characters.`)
    .refine((value) => value.trim().length > 0, "Type an answer first.")
    // A lone UTF-16 surrogate is no character: stored as U+FFFD, as PostgreSQL's text would have it.
    .transform((value) => value.replace(/[\uD800-\uDFFF]/gu, "\uFFFD")),
});
export const pairsGivenSchema = z.strictObject({
  pairs: z
    .array(z.strictObject({ malay: givenId, english: givenId }))
    .min(1)
    .max(8),
});

/**
 * An answer: `{ choiceId }` for comprehension, listen-choose, choose-price and reply-choose; `{ tileIds }`
 * in the built order for build-sentence; `{ text }` for type-heard, type-malay, type-price and reply-type; `{ pairs }`
 * linking each pair's Malay side (its id) to an English side (a pair id) for match-pairs.
 */
export const givenSchema = z.union([choiceGivenSchema, tilesGivenSchema, textGivenSchema, pairsGivenSchema], {
  error: 'The answer must be { "choiceId" }, { "tileIds" }, { "text" } or { "pairs" }.',
});

/**
 * The right answer as the server sends it with a grade, for feedback (a practice answer, a review):
 * its text, the answer in the form of what was given (the choice to mark, the tile order, the pairs),
 * its clip (/media/course/…mp3) or null, why it is right in one line or null, and every accepted form
 * when there are several, else none.
 */
export const correctAnswerSchema = z.strictObject({
  text: z.string(),
  answer: givenSchema,
  audio: z.string().nullable(),
  explain: z.string().nullable(),
  accepted: z.array(z.string()),
});

export type CorrectAnswer = z.output<typeof correctAnswerSchema>;
export type Given = z.output<typeof givenSchema>;
export type ChoiceGiven = z.output<typeof choiceGivenSchema>;
export type TilesGiven = z.output<typeof tilesGivenSchema>;
export type TextGiven = z.output<typeof textGivenSchema>;
export type PairsGiven = z.output<typeof pairsGivenSchema>;

/** Spoken-item ids each item refers to (its `audio` and `replyAudio`), with where, for the day's content check. */
export function itemAudioReferences(items: readonly ExerciseItem[]): { id: string; path: (string | number)[] }[] {
  return items.flatMap((item, index) => [
    ...("audio" in item && item.audio ? [{ id: item.audio, path: [index, "audio"] }] : []),
    ...("replyAudio" in item && item.replyAudio ? [{ id: item.replyAudio, path: [index, "replyAudio"] }] : []),
  ]);
}
