import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { z } from "zod";
import type { AnswerResponse, answerRequestSchema, PracticeProgress } from "#course/answers-contract";
import {
  type Chapter,
  courseAudioPath,
  courseOutline,
  type Day,
  type PracticeSet,
  practiceSetOf,
} from "#course/course";
import { type ExerciseItem, givenSchema } from "#course/exercise-schema";
import { checkGiven, type Grade, grade, type RightAnswer, rightAnswer } from "#course/grading";
import { type DayRef, isDayUnlocked, type ProgressMap } from "#course/progress-rules";
import { STAFF_ROLES } from "#course/roles";
import type { Database } from "#server/db/client";
import { answer, dayCompletion, taskProgress } from "#server/db/schema";
import type { SessionUser } from "#server/http/context";
import { badRequest, HttpError } from "#server/http/errors";
import { dayLockedError, findCourseTask } from "#server/modules/progress/progress.service";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type AnswerInput = z.output<typeof answerRequestSchema>;

export interface PracticeTarget {
  chapterId: string;
  dayId: string;
  taskId: string;
}

/**
 * The first half of the advisory lock an answer takes per user; the second is a hash of the user id.
 * One user's answers take turns, so two answers that finish a set at the same moment cannot each
 * miss the other's, and a resend waits for the first send to commit. Two-part keys never collide
 * with single 64-bit ones; the contact form uses class 740_214.
 */
const ANSWER_LOCK_CLASS = 740_215;

/**
 * Graded answers to practice sets (docs/decisions/032-graded-answers.md): every answer is stored
 * once per user and client-made id; the set's task is completed by the server, in the transaction
 * of the answer that leaves every item answered right at least once.
 */
export function createAnswersService(db: Database, course: readonly Chapter[]) {
  const outline = courseOutline(course);
  const isStaff = (user: SessionUser) => STAFF_ROLES.includes(user.role);

  /** The day and practice set under these ids; an unknown one is a 400 naming it, as progress does. */
  function findPracticeSet({ chapterId, dayId, taskId }: PracticeTarget): { day: Day; set: PracticeSet } {
    const day = findCourseTask(course, { chapterId, dayId, taskId });
    const set = practiceSetOf(day, taskId);
    if (!set) throw badRequest(`"${taskId}" of day ${day.number} is not a practice set.`);
    return { day, set };
  }

  /**
   * A learner answers only on a day they may open (progress-rules' isDayUnlocked, with the days they
   * completed once); staff are never locked out. Read in the answer's transaction.
   */
  async function assertDayOpen(tx: Transaction, user: SessionUser, day: Day, target: DayRef) {
    if (isStaff(user)) return;
    const [rows, completed] = await Promise.all([
      tx
        .select({
          chapterId: taskProgress.chapterId,
          dayId: taskProgress.sectionId,
          taskId: taskProgress.taskId,
          status: taskProgress.status,
        })
        .from(taskProgress)
        .where(and(eq(taskProgress.userId, user.id), ne(taskProgress.status, "not-started"))),
      tx
        .select({ chapterId: dayCompletion.chapterId, dayId: dayCompletion.dayId })
        .from(dayCompletion)
        .where(eq(dayCompletion.userId, user.id)),
    ]);
    const progress: ProgressMap = {};
    for (const row of rows) {
      progress[row.chapterId] ??= {};
      progress[row.chapterId]![row.dayId] ??= {};
      progress[row.chapterId]![row.dayId]![row.taskId] = row.status;
    }
    if (isDayUnlocked(outline, progress, target, { signedIn: true, role: user.role }, completed)) return;
    throw dayLockedError(outline, day, progress, target, completed);
  }

  const ofTask = (userId: string, target: PracticeTarget) =>
    and(
      eq(answer.userId, userId),
      eq(answer.chapterId, target.chapterId),
      eq(answer.dayId, target.dayId),
      eq(answer.taskId, target.taskId),
    );

  /** The items of the set this user has answered right at least once. */
  async function itemsAnsweredRight(tx: Database | Transaction, userId: string, target: PracticeTarget) {
    const rows = await tx
      .selectDistinct({ itemId: answer.itemId })
      .from(answer)
      .where(and(ofTask(userId, target), eq(answer.correct, true)));
    return new Set(rows.map((row) => row.itemId));
  }

  async function isTaskCompleted(tx: Database | Transaction, userId: string, target: PracticeTarget) {
    const [row] = await tx
      .select({ status: taskProgress.status })
      .from(taskProgress)
      .where(
        and(
          eq(taskProgress.userId, userId),
          eq(taskProgress.chapterId, target.chapterId),
          eq(taskProgress.sectionId, target.dayId),
          eq(taskProgress.taskId, target.taskId),
        ),
      );
    return row?.status === "completed";
  }

  /**
   * Moves the practice task forward: in progress once answered, completed once every item has been
   * answered right. Never back: a completed task stays completed (decision 011), and an unchanged
   * status is not rewritten. A completion that leaves every task of the day completed records the
   * day as completed once (decision 030), as a progress save does. Answers whether the task is
   * completed.
   */
  async function moveTaskForward(
    tx: Transaction,
    userId: string,
    target: PracticeTarget,
    day: Day,
    status: "in-progress" | "completed",
  ): Promise<boolean> {
    await tx
      .insert(taskProgress)
      .values({ userId, chapterId: target.chapterId, sectionId: target.dayId, taskId: target.taskId, status })
      .onConflictDoUpdate({
        target: [taskProgress.userId, taskProgress.chapterId, taskProgress.sectionId, taskProgress.taskId],
        set: { status, updatedAt: sql`now()` },
        setWhere: sql`${taskProgress.status} <> 'completed' and ${taskProgress.status} is distinct from excluded.status`,
      });
    if (status !== "completed") return isTaskCompleted(tx, userId, target);
    const taskIds = day.tasks.map((task) => task.id);
    const completed = await tx
      .select({ taskId: taskProgress.taskId })
      .from(taskProgress)
      .where(
        and(
          eq(taskProgress.userId, userId),
          eq(taskProgress.chapterId, target.chapterId),
          eq(taskProgress.sectionId, target.dayId),
          inArray(taskProgress.taskId, taskIds),
          eq(taskProgress.status, "completed"),
        ),
      );
    if (completed.length === taskIds.length) {
      await tx
        .insert(dayCompletion)
        .values({ userId, chapterId: target.chapterId, dayId: target.dayId })
        .onConflictDoNothing();
    }
    return true;
  }

  /** The right answer as the API sends it: with its clip's path. */
  const feedback = (target: PracticeTarget, correct: RightAnswer): AnswerResponse["correct"] => ({
    text: correct.text,
    answer: correct.answer,
    audio: correct.audioId ? courseAudioPath(target.chapterId, target.dayId, correct.audioId) : null,
  });

  /**
   * A resend's answer, from what was stored: right when it was judged right, else graded again to tell
   * almost from wrong (only right is stored). An answer the item no longer fits is wrong.
   */
  function regrade(
    item: ExerciseItem,
    stored: { given: unknown; correct: boolean },
  ): { grade: Grade; correct: RightAnswer } {
    const parsed = givenSchema.safeParse(stored.given);
    const graded =
      parsed.success && checkGiven(item, parsed.data).length === 0
        ? grade(item, parsed.data)
        : { grade: "wrong" as const, correct: rightAnswer(item) };
    if (stored.correct) return { grade: "right", correct: graded.correct };
    return { grade: graded.grade === "almost" ? "almost" : "wrong", correct: graded.correct };
  }

  return {
    /**
     * Grades and stores one answer. Refused before anything is written: unknown ids (400), an answer
     * that does not fit the item (400), a day the learner has not unlocked (409 DAY_LOCKED), a
     * clientId this user already sent for another item (409). A resend of a stored answer stores
     * nothing and answers as the first send did.
     */
    async answer(user: SessionUser, input: AnswerInput): Promise<AnswerResponse> {
      const target = { chapterId: input.chapterId, dayId: input.dayId, taskId: input.taskId };
      const { day, set } = findPracticeSet(target);
      const item = set.items.find((candidate) => candidate.id === input.itemId);
      if (!item) {
        throw badRequest(`The practice set "${input.taskId}" of day ${day.number} has no item "${input.itemId}".`);
      }
      const issues = checkGiven(item, input.given);
      if (issues.length > 0) throw badRequest("This answer does not fit the item.", issues);

      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${ANSWER_LOCK_CLASS}::int, hashtext(${user.id}))`);
        const [stored] = await tx
          .select()
          .from(answer)
          .where(and(eq(answer.userId, user.id), eq(answer.clientId, input.clientId)));
        if (stored) {
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
          const replayed = regrade(item, stored);
          return {
            result: replayed.grade,
            correct: feedback(target, replayed.correct),
            taskCompleted: await isTaskCompleted(tx, user.id, target),
          };
        }

        await assertDayOpen(tx, user, day, target);
        const graded = grade(item, input.given);
        const right = graded.grade === "right";
        await tx.insert(answer).values({
          userId: user.id,
          clientId: input.clientId,
          ...target,
          itemId: item.id,
          given: input.given,
          correct: right,
        });
        // Only a right answer can finish the set; the read sees this transaction's own insert.
        const answered = right ? await itemsAnsweredRight(tx, user.id, target) : new Set<string>();
        const setDone = set.items.every((each) => answered.has(each.id));
        const taskCompleted = await moveTaskForward(tx, user.id, target, day, setDone ? "completed" : "in-progress");
        return { result: graded.grade, correct: feedback(target, graded.correct), taskCompleted };
      });
    },

    /** Which items of a practice set the user has answered right, and whether its task is completed. */
    async practiceProgress(user: SessionUser, target: PracticeTarget): Promise<PracticeProgress> {
      const { set } = findPracticeSet(target);
      const [right, taskCompleted] = await Promise.all([
        itemsAnsweredRight(db, user.id, target),
        isTaskCompleted(db, user.id, target),
      ]);
      return { answeredRight: set.items.filter((item) => right.has(item.id)).map((item) => item.id), taskCompleted };
    },
  };
}

export type AnswersService = ReturnType<typeof createAnswersService>;
