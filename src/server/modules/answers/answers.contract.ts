import { z } from "zod";
import { correctAnswerSchema, givenSchema } from "#course/exercise-schema";
import { GRADES } from "#course/grading";

/**
 * The answers API, written once: the server's route parses requests and types its answers with these
 * schemas, and the web app's fetcher uses the same ones (docs/decisions/032-graded-answers.md).
 *
 * POST /api/answers                              answerRequestSchema → answerResponseSchema
 * GET  /api/answers/:chapterId/:dayId/:taskId    → practiceProgressSchema
 */

const id = (name: string) =>
  z
    .string({ error: `${name} is required.` })
    .min(1, `${name} is required.`)
    .max(100, `${name} can be at most 100 characters.`);

/** One answer to one item of a practice set. */
export const answerRequestSchema = z.strictObject({
  /**
   * Made by the client for each answer (crypto.randomUUID()), and sent again with a resend: the
   * server stores an answer once per user and clientId, and answers a resend as it answered first.
   */
  clientId: z
    .uuid({ error: "clientId must be a UUID made by the client for this answer." })
    .transform((value) => value.toLowerCase()),
  chapterId: id("chapterId"),
  dayId: id("dayId"),
  /** The practice set's task. */
  taskId: id("taskId"),
  itemId: id("itemId"),
  given: givenSchema,
});

export type AnswerRequest = z.input<typeof answerRequestSchema>;

export const answerResponseSchema = z.strictObject({
  /** "almost" is not right: the item comes back, and the feedback says how close it was. */
  result: z.enum(GRADES),
  /** Right, typed with a one-letter slip in a long answer: `correct.text` shows how it is written. */
  typo: z.boolean(),
  /** With `typo`, the word or words mistyped and how the answer writes them; else null. */
  slip: z.strictObject({ typed: z.string(), right: z.string() }).nullable(),
  /** The right answer, for feedback; its `explain` is the item's. */
  correct: correctAnswerSchema,
  /** Whether the practice set's task is completed: every item has been answered right once. */
  taskCompleted: z.boolean(),
});

export type AnswerResponse = z.output<typeof answerResponseSchema>;

/** Where a learner is in a practice set, for resuming it. */
export const practiceProgressSchema = z.strictObject({
  /** The set's items this learner has answered right at least once, in the set's order. */
  answeredRight: z.array(z.string()),
  taskCompleted: z.boolean(),
});

export type PracticeProgress = z.output<typeof practiceProgressSchema>;

/** An item of a day's practice the learner answered wrong: for the tutor's brief in a session's room. */
export interface PracticeMistake {
  taskId: string;
  itemId: string;
  prompt: string;
  /** The right answer, as the learner is shown it. */
  answer: string;
  /** What the learner gave, each once, the first three. */
  wrongAnswers: string[];
  /** How many times they answered it wrong. */
  wrong: number;
  /** Whether they answered it right at a later try. */
  rightSince: boolean;
}
