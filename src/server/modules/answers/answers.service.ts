import type { z } from "zod";
import {
  type Chapter,
  courseAudioPath,
  type Day,
  lookUpDay,
  lookUpTask,
  type PracticeSet,
  practiceSetOf,
} from "#course/course";
import { type ExerciseItem, givenSchema } from "#course/exercise-schema";
import { checkGiven, type Graded, grade, type RightAnswer, rightAnswer } from "#course/grading";
import type { DayRef, TaskRef } from "#course/progress-rules";
import { givenText } from "#course/review-items";
import { taughtWords } from "#course/taught-words";
import type { Database } from "#server/db/client";
import type { SessionUser } from "#server/http/context";
import { badRequest, HttpError } from "#server/http/errors";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { AnswerResponse, answerRequestSchema, PracticeMistake, PracticeProgress } from "./answers.contract";
import { createAnswersRepository } from "./answers.repository";

type AnswerInput = z.output<typeof answerRequestSchema>;

export type PracticeTarget = TaskRef;

export interface AnswersDeps {
  db: Database;
  course: readonly Chapter[];
  /** Whether the learner may answer on the day, and the practice task's status, which answers move forward. */
  progress: Pick<ProgressModule["service"], "assertDayOpen" | "moveTaskForward" | "isTaskCompleted">;
}

/**
 * Graded answers to practice sets (docs/decisions/032-graded-answers.md): every answer is stored
 * once per user and client-made id; the set's task is completed, through the progress service, in
 * the transaction of the answer that leaves every item answered right at least once.
 */
export function createAnswersService(deps: AnswersDeps) {
  const ctx: AnswersContext = {
    ...deps,
    answers: createAnswersRepository(deps.db),
    grading: { forgiveSlips: true, taughtWords: taughtWords(deps.course) },
  };
  return { ...answering(ctx), ...practiceReads(ctx) };
}

export type AnswersService = ReturnType<typeof createAnswersService>;

interface AnswersContext extends AnswersDeps {
  answers: ReturnType<typeof createAnswersRepository>;
  /**
   * Practice sets take a one-letter slip in a long typed answer as right (decision 053), unless it
   * types another word the course teaches (decision 065).
   */
  grading: { forgiveSlips: true; taughtWords: ReadonlySet<string> };
}

/** Answering an item: graded, stored once, and the set's task moved forward. */
function answering({ db, course, progress, answers, grading }: AnswersContext) {
  return {
    /**
     * Grades and stores one answer. Refused before anything is written: unknown ids (400), an answer
     * that does not fit the item (400), a day the learner has not unlocked (409 DAY_LOCKED), a
     * clientId this user already sent for another item (409). A resend of a stored answer stores
     * nothing and answers as the first send did.
     */
    async answer(user: SessionUser, input: AnswerInput): Promise<AnswerResponse> {
      const target = { chapterId: input.chapterId, dayId: input.dayId, taskId: input.taskId };
      const { day, set } = findPracticeSet(course, target);
      const item = set.items.find((candidate) => candidate.id === input.itemId);
      if (!item) {
        throw badRequest(`The practice set "${input.taskId}" of day ${day.number} has no item "${input.itemId}".`);
      }
      const issues = checkGiven(item, input.given);
      if (issues.length > 0) throw badRequest("This answer does not fit the item.", issues);

      return db.transaction(async (tx) => {
        await answers.lockUser(tx, user.id);
        const stored = await answers.byClientId(tx, user.id, input.clientId);
        if (stored) {
          const replayed = resent(item, input, stored, grading);
          return { ...replayed, taskCompleted: await progress.isTaskCompleted(user.id, target, tx) };
        }

        await progress.assertDayOpen(user, target, tx);
        const graded = grade(item, input.given, grading);
        const right = graded.grade === "right";
        await answers.insert(tx, {
          userId: user.id,
          clientId: input.clientId,
          ...target,
          itemId: item.id,
          given: input.given,
          correct: right,
        });
        // Only a right answer can finish the set; the read sees this transaction's own insert.
        const answered = right ? await answers.itemsAnsweredRight(user.id, target, tx) : new Set<string>();
        const setDone = set.items.every((each) => answered.has(each.id));
        const status = setDone ? "completed" : "in-progress";
        const taskCompleted = await progress.moveTaskForward(user.id, target, status, tx);
        return {
          result: graded.grade,
          typo: graded.typo,
          slip: graded.slip,
          correct: feedback(target, graded.correct),
          taskCompleted,
        };
      });
    },
  };
}

/** What the learner and their tutors read of the answers: a set's progress, a day's mistakes, the last answer, the export. */
function practiceReads({ course, progress, answers }: AnswersContext) {
  return {
    /** Which items of a practice set the user has answered right, and whether its task is completed. */
    async practiceProgress(user: SessionUser, target: PracticeTarget): Promise<PracticeProgress> {
      const { set } = findPracticeSet(course, target);
      const [right, taskCompleted] = await Promise.all([
        answers.itemsAnsweredRight(user.id, target),
        progress.isTaskCompleted(user.id, target),
      ]);
      return { answeredRight: set.items.filter((item) => right.has(item.id)).map((item) => item.id), taskCompleted };
    },

    /**
     * The items of a day's practice the user answered wrong, in the order they first missed them:
     * what they gave (the first three, each once), the right answer, and whether they got it since.
     */
    async mistakesOfDay(userId: string, target: DayRef): Promise<PracticeMistake[]> {
      const found = lookUpDay(course, target.chapterId, target.dayId);
      if ("unknown" in found) throw badRequest(found.unknown);
      const [wrongs, right] = await Promise.all([
        answers.wrongOfDay(userId, target),
        answers.rightOfDay(userId, target),
      ]);
      return mistakesOf(found.day, wrongs, right);
    },

    /** When the user last answered a practice item, if ever. */
    lastAnswerAt: (userId: string): Promise<Date | null> => answers.lastAnsweredAt(userId),

    /** The user's part of Export My Data: every answer given, oldest first. */
    async exportFor(userId: string) {
      return { answers: await answers.exportFor(userId) };
    },
  };
}

/** The day and practice set under these ids; an unknown one is a 400 naming it, as progress does. */
function findPracticeSet(course: readonly Chapter[], target: PracticeTarget): { day: Day; set: PracticeSet } {
  const found = lookUpTask(course, target);
  if ("unknown" in found) throw badRequest(found.unknown);
  const { day } = found;
  const set = practiceSetOf(day, target.taskId);
  if (!set) throw badRequest(`"${target.taskId}" of day ${day.number} is not a practice set.`);
  return { day, set };
}

/** The right answer as the API sends it: with its clip's path. */
const feedback = (target: PracticeTarget, correct: RightAnswer): AnswerResponse["correct"] => ({
  text: correct.text,
  answer: correct.answer,
  audio: correct.audioId ? courseAudioPath(target.chapterId, target.dayId, correct.audioId) : null,
  explain: correct.explain,
  accepted: correct.accepted,
});

type StoredAnswer = NonNullable<Awaited<ReturnType<AnswersContext["answers"]["byClientId"]>>>;

/** A resend of a stored answer: answered as the first send was; 409 when its clientId was sent for another item. */
function resent(
  item: ExerciseItem,
  input: AnswerInput,
  stored: StoredAnswer,
  grading: AnswersContext["grading"],
): Omit<AnswerResponse, "taskCompleted"> {
  const sameItem =
    stored.chapterId === input.chapterId &&
    stored.dayId === input.dayId &&
    stored.taskId === input.taskId &&
    stored.itemId === input.itemId;
  if (!sameItem) {
    throw new HttpError(
      409,
      "CLIENT_ID_REUSED",
      "This clientId was already sent with an answer to another item. Make a new one for each answer.",
    );
  }
  const replayed = regrade(item, stored, grading);
  return {
    result: replayed.grade,
    typo: replayed.typo,
    slip: replayed.slip,
    correct: feedback({ chapterId: input.chapterId, dayId: input.dayId, taskId: input.taskId }, replayed.correct),
  };
}

/**
 * A resend's answer, from what was stored: right when it was judged right, else graded again to tell
 * almost from wrong (only right is stored). An answer the item no longer fits is wrong.
 */
function regrade(
  item: ExerciseItem,
  stored: { given: unknown; correct: boolean },
  grading: AnswersContext["grading"],
): Graded {
  const parsed = givenSchema.safeParse(stored.given);
  const graded: Graded =
    parsed.success && checkGiven(item, parsed.data).length === 0
      ? grade(item, parsed.data, grading)
      : { grade: "wrong", typo: false, slip: null, correct: rightAnswer(item) };
  if (stored.correct) return { grade: "right", typo: graded.typo, slip: graded.slip, correct: graded.correct };
  return { grade: graded.grade === "almost" ? "almost" : "wrong", typo: false, slip: null, correct: graded.correct };
}

/** A day's mistakes from its wrong answers (oldest first) and the items since answered right. */
function mistakesOf(
  day: Day,
  wrongs: readonly { taskId: string; itemId: string; given: unknown }[],
  right: ReadonlySet<string>,
): PracticeMistake[] {
  const mistakes = new Map<string, PracticeMistake>();
  for (const row of wrongs) {
    const item = practiceSetOf(day, row.taskId)?.items.find((each) => each.id === row.itemId);
    if (!item) continue;
    const key = `${row.taskId}/${row.itemId}`;
    const mistake = mistakes.get(key) ?? {
      taskId: row.taskId,
      itemId: row.itemId,
      prompt: item.prompt,
      answer: rightAnswer(item).text,
      wrongAnswers: [],
      wrong: 0,
      rightSince: right.has(key),
    };
    mistake.wrong += 1;
    const parsed = givenSchema.safeParse(row.given);
    const given = parsed.success ? givenText(item, parsed.data) : null;
    if (given && mistake.wrongAnswers.length < 3 && !mistake.wrongAnswers.includes(given)) {
      mistake.wrongAnswers.push(given);
    }
    mistakes.set(key, mistake);
  }
  return [...mistakes.values()];
}
