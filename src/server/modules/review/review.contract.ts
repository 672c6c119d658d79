import { z } from "zod";
import { correctAnswerSchema, exerciseQuestionSchema, givenSchema } from "#course/exercise-schema";
import { GRADES } from "#course/grading";
import { canonicalTimeZone, DAILY_GOAL_UNITS, isTimeZone, MAX_REVIEW_MS, REVIEW_SKILLS } from "#course/review-rules";
import { SELF_RATINGS, TUTOR_RATING_MAX, TUTOR_RATING_MIN } from "#course/speaking";

/**
 * The review API, written once for the server's routes and the web app's fetchers
 * (docs/decisions/039-review-deck.md). Times travel as ISO strings.
 *
 * GET  /api/review?timeZone=                  → reviewRoundSchema: the summary and the next round of due cards
 * GET  /api/review/summary?timeZone=          → reviewSummarySchema
 * POST /api/review/answers                    reviewAnswerRequestSchema → reviewAnswerResponseSchema
 * GET  /api/review/hardest/:chapterId         → hardestCardsSchema: a review day's warm-up
 * GET  /api/users/:userId/review              → struggleReportSchema (staff)
 * POST /api/users/:userId/review/pins         pinRequestSchema → pinResponseSchema (staff)
 * POST /api/reminders/unsubscribe             the reminders module's contract (reminders.contract.ts)
 */

const isoTime = z.iso.datetime({ offset: true });

export const timeZoneSchema = z
  .string({ error: "timeZone must be a time zone name such as Asia/Kuala_Lumpur." })
  .max(64, "timeZone must be a time zone name such as Asia/Kuala_Lumpur.")
  .refine(isTimeZone, "timeZone must be a time zone name such as Asia/Kuala_Lumpur.")
  // Stored and compared in the runtime's own spelling only.
  .transform((timeZone) => canonicalTimeZone(timeZone)!);

/** `?timeZone=` of GET /api/review and /api/review/summary: where the learner is now; the account's zone when absent. */
export const reviewQuerySchema = z.object({ timeZone: timeZoneSchema.optional() });
export type ReviewQuery = z.input<typeof reviewQuerySchema>;

export const reviewSummarySchema = z.strictObject({
  /** Cards due now, pinned ones included. */
  due: z.number().int().nonnegative(),
  /** When the next card not yet due becomes due; null when none is waiting. */
  nextDueAt: isoTime.nullable(),
  /** Every card of the phrases met. */
  deckSize: z.number().int().nonnegative(),
  /** Today, in the learner's time zone: reviews answered and minutes spent. */
  today: z.strictObject({ reviews: z.number().int().nonnegative(), minutes: z.number().nonnegative() }),
  goal: z.strictObject({ unit: z.enum(DAILY_GOAL_UNITS), amount: z.number().int().positive() }),
  goalMet: z.boolean(),
  /** Days in a row the goal was met, up to today (or yesterday while today's is not met yet). */
  streak: z.number().int().nonnegative(),
  /** The zone "today" was counted in. */
  timeZone: z.string(),
});
export type ReviewSummary = z.output<typeof reviewSummarySchema>;

/**
 * One card to review, as the question of an exercise of the engine's kinds: nothing in it gives the
 * right answer away, which comes with the answer's response (reviewAnswerResponseSchema).
 */
export const reviewExerciseSchema = z.strictObject({
  /** The card's served id (servedCardId in src/course/review-rules.ts), which does not name its phrase; answers send it. */
  cardId: z.string(),
  skill: z.enum(REVIEW_SKILLS),
  item: exerciseQuestionSchema,
  /** The clip a listening card plays, or a spoken card's model; null for the other skills, whose clip says the answer. */
  audio: z.string().nullable(),
  dayNumber: z.number().int(),
  dayTitle: z.string(),
  /** A tutor pinned the phrase into the learner's review. */
  fromTutor: z.boolean(),
  /**
   * On a spoken card a tutor pinned after hearing the phrase: their rating and comment, the take they
   * rated, and the line it was of (a new take of it may be sent to a tutor with the speaking API).
   */
  tutor: z
    .strictObject({
      rating: z.number().int().min(TUTOR_RATING_MIN).max(TUTOR_RATING_MAX),
      comment: z.string().nullable(),
      /** The learner's take the tutor rated; null for a live session's rating or a take since removed. */
      take: z.string().nullable(),
      line: z.strictObject({ chapterId: z.string(), dayId: z.string(), lineId: z.string() }).nullable(),
    })
    .nullable(),
  /** Never reviewed before. */
  isNew: z.boolean(),
});
export type ReviewExercise = z.output<typeof reviewExerciseSchema>;

export const reviewRoundSchema = z.strictObject({
  summary: reviewSummarySchema,
  cards: z.array(reviewExerciseSchema),
});
export type ReviewRound = z.output<typeof reviewRoundSchema>;

export const hardestCardsSchema = z.strictObject({ cards: z.array(reviewExerciseSchema) });
export type HardestCards = z.output<typeof hardestCardsSchema>;

/** A spoken card's answer: how close the learner's Malay was to the model, as they heard it. */
export const spokenGivenSchema = z.strictObject({
  selfRating: z.enum(SELF_RATINGS, { error: 'selfRating must be "again", "close" or "good".' }),
});

export const reviewAnswerRequestSchema = z.strictObject({
  /** Made by the client for this review and sent again with a resend: stored once per user. */
  clientId: z
    .uuid({ error: "clientId must be a UUID made by the client for this review." })
    .transform((value) => value.toLowerCase()),
  cardId: z.string({ error: "cardId is required." }).min(1, "cardId is required.").max(400, "cardId is too long."),
  /** The engine's forms for a written card; `{ selfRating }` for a spoken one (the learner's own rating of their take). */
  given: z.union([givenSchema, spokenGivenSchema], {
    error:
      'The answer must be { "choiceId" }, { "tileIds" }, { "text" }, { "pairs" } or, for a spoken card, { "selfRating" }.',
  }),
  /** From showing the card to the answer; longer counts as MAX_REVIEW_MS. */
  durationMs: z
    .number({ error: "durationMs must be a number of milliseconds." })
    .int("durationMs must be a whole number of milliseconds.")
    .nonnegative("durationMs cannot be negative.")
    .transform((value) => Math.min(value, MAX_REVIEW_MS)),
  /** The learner asked for a hint before answering. */
  hinted: z.boolean({ error: "hinted must be true or false." }).default(false),
  /** The learner said it was easy. */
  easy: z.boolean({ error: "easy must be true or false." }).default(false),
  /** When the learner answered, for a review sent later (offline); now when absent. */
  reviewedAt: isoTime.optional(),
  /** Where the learner is, for the day the review counts towards; the account's zone when absent. */
  timeZone: timeZoneSchema.optional(),
});
export type ReviewAnswerRequest = z.input<typeof reviewAnswerRequestSchema>;

export const reviewAnswerResponseSchema = z.strictObject({
  result: z.enum(GRADES),
  /**
   * Right, recalled with a one-letter slip in a long answer, as practice forgives it (decision 065):
   * `slip` names the word as typed and as written, and the rating is Hard.
   */
  typo: z.boolean(),
  slip: z.strictObject({ typed: z.string(), right: z.string() }).nullable(),
  /** The right answer, for feedback; its `explain` is the phrase's card note. */
  correct: correctAnswerSchema,
  /** The FSRS rating the answer earned: 1 Again, 2 Hard, 3 Good, 4 Easy. */
  rating: z.number().int().min(1).max(4),
  /** When this card comes back. */
  nextDueAt: isoTime,
  /**
   * The day this review counts towards (by the server's clock, in the zone it was sent from), after
   * it: reviews answered and time counted, in minutes to show and milliseconds to judge the goal by. The rest of the summary is GET /api/review/summary's.
   */
  day: z.strictObject({
    reviews: z.number().int().positive(),
    minutes: z.number().nonnegative(),
    /** The counted time to the millisecond: what a minutes goal is judged by (goalMetBy). */
    countedMs: z.number().int().nonnegative(),
  }),
  /**
   * Whether today's goal is met and the streak after this review, as GET /api/review/summary gives
   * them right after it in the zone the review counted in: the page shows these, never its own reckoning.
   */
  goalMet: z.boolean(),
  streak: z.number().int().nonnegative(),
});
export type ReviewAnswerResponse = z.output<typeof reviewAnswerResponseSchema>;

const slugField = (name: string) =>
  z
    .string({ error: `${name} is required.` })
    .min(1, `${name} is required.`)
    .max(100, `${name} can be at most 100 characters.`);

export const pinRequestSchema = z.strictObject({
  chapterId: slugField("chapterId"),
  dayId: slugField("dayId"),
  phraseId: slugField("phraseId"),
});

export const weakPhraseSchema = z.strictObject({
  chapterId: z.string(),
  dayId: z.string(),
  phraseId: z.string(),
  dayNumber: z.number().int(),
  malay: z.string(),
  english: z.string(),
  /** Times a card of the phrase was forgotten after being learnt. */
  lapses: z.number().int().nonnegative(),
  /** Reviews of the phrase answered wrong. */
  wrong: z.number().int().nonnegative(),
  /** The newest wrong answers given, newest first, each once. */
  wrongAnswers: z.array(z.string()),
  pinned: z.boolean(),
});
export type WeakPhrase = z.output<typeof weakPhraseSchema>;

export const struggleReportSchema = z.strictObject({
  weakest: z.array(weakPhraseSchema),
  due: z.number().int().nonnegative(),
  deckSize: z.number().int().nonnegative(),
  streak: z.number().int().nonnegative(),
  /** The learner's newest review, answer or progress save; null when they have done none. */
  lastActivityAt: isoTime.nullable(),
});
export type StruggleReport = z.output<typeof struggleReportSchema>;

export const pinResponseSchema = z.strictObject({
  pinned: weakPhraseSchema.pick({ chapterId: true, dayId: true, phraseId: true, malay: true }),
});
export type PinResponse = z.output<typeof pinResponseSchema>;
