import { and, asc, eq, max, sql } from "drizzle-orm";
import type { TaskRef } from "#course/progress-rules";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { LOCK_CLASSES } from "#server/db/locks";
import { answer } from "./answers.tables";

const ofTask = (userId: string, target: TaskRef) =>
  and(
    eq(answer.userId, userId),
    eq(answer.chapterId, target.chapterId),
    eq(answer.dayId, target.dayId),
    eq(answer.taskId, target.taskId),
  );

/** The answers module's table: answer, one row per answer a user gave to a practice item. */
export function createAnswersRepository(db: Database) {
  return {
    /** Makes this user's answers take turns until the transaction ends (LOCK_CLASSES.answers). */
    async lockUser(tx: Transaction, userId: string): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASSES.answers}::int, hashtext(${userId}))`);
    },

    /** The answer this user sent under this clientId, if any. */
    async byClientId(tx: Transaction, userId: string, clientId: string) {
      const [stored] = await tx
        .select()
        .from(answer)
        .where(and(eq(answer.userId, userId), eq(answer.clientId, clientId)));
      return stored;
    },

    async insert(tx: Transaction, row: typeof answer.$inferInsert): Promise<void> {
      await tx.insert(answer).values(row);
    },

    /** The items of the set this user has answered right at least once. */
    async itemsAnsweredRight(userId: string, target: TaskRef, q: Queryable = db): Promise<Set<string>> {
      const rows = await q
        .selectDistinct({ itemId: answer.itemId })
        .from(answer)
        .where(and(ofTask(userId, target), eq(answer.correct, true)));
      return new Set(rows.map((row) => row.itemId));
    },

    /** The user's answers judged wrong on a day's practice sets, oldest first. */
    wrongOfDay(userId: string, target: { chapterId: string; dayId: string }) {
      return db
        .select({ taskId: answer.taskId, itemId: answer.itemId, given: answer.given })
        .from(answer)
        .where(
          and(
            eq(answer.userId, userId),
            eq(answer.chapterId, target.chapterId),
            eq(answer.dayId, target.dayId),
            eq(answer.correct, false),
          ),
        )
        .orderBy(asc(answer.answeredAt), asc(answer.id));
    },

    /** The items of a day's practice sets the user has answered right at least once, as "task/item". */
    async rightOfDay(userId: string, target: { chapterId: string; dayId: string }): Promise<Set<string>> {
      const rows = await db
        .selectDistinct({ taskId: answer.taskId, itemId: answer.itemId })
        .from(answer)
        .where(
          and(
            eq(answer.userId, userId),
            eq(answer.chapterId, target.chapterId),
            eq(answer.dayId, target.dayId),
            eq(answer.correct, true),
          ),
        );
      return new Set(rows.map((row) => `${row.taskId}/${row.itemId}`));
    },

    /** When the user last answered a practice item, if ever. */
    async lastAnsweredAt(userId: string, q: Queryable = db): Promise<Date | null> {
      const [row] = await q
        .select({ at: max(answer.answeredAt) })
        .from(answer)
        .where(eq(answer.userId, userId));
      return row?.at ?? null;
    },

    /** Every answer of the user, oldest first. */
    exportFor(userId: string) {
      return db
        .select({
          clientId: answer.clientId,
          chapterId: answer.chapterId,
          dayId: answer.dayId,
          taskId: answer.taskId,
          itemId: answer.itemId,
          given: answer.given,
          correct: answer.correct,
          answeredAt: answer.answeredAt,
        })
        .from(answer)
        .where(eq(answer.userId, userId))
        .orderBy(asc(answer.answeredAt), asc(answer.id));
    },
  };
}
