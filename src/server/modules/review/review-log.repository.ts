import { and, asc, desc, eq, max, sql } from "drizzle-orm";
import type { CardKey } from "#course/review-rules";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { type reviewCard, reviewDay, reviewLog } from "./review.tables";

/** A review as it is logged, with what it adds to its day. */
export interface LoggedReview extends NewLogRow {
  receivedAt: Date;
  /** What it adds towards a minutes goal (countedMs). */
  countedMs: number;
  /** When it counts (countedAt); its localDate is that instant's date in timeZone. */
  countedAt: Date;
}

/** The rows of one learner's card, in the deck or in the log. */
export function cardWhere(table: typeof reviewCard | typeof reviewLog, userId: string, key: CardKey) {
  return and(
    eq(table.userId, userId),
    eq(table.chapterId, key.chapterId),
    eq(table.dayId, key.dayId),
    eq(table.phraseId, key.phraseId),
    eq(table.skill, key.skill),
  );
}

/** A review as the log keeps it. */
export type NewLogRow = typeof reviewLog.$inferInsert;

/** The review module's log reads and writes: review_log (every review answered) and review_day (its totals per day). */
export function createReviewLogRepository(db: Database) {
  return {
    ...loggedReviews(db),
    ...learnerActivity(db),
  };
}

/** Logging a review out of order and reading a learner's log back: the card's events, a resend, a day's totals. */
function loggedReviews(db: Database) {
  return {
    /** Adds a review logged out of order (in the caller's transaction) to its day. */
    async countReview(tx: Transaction, row: LoggedReview): Promise<{ reviews: number; countedMs: number }> {
      const [day] = await tx
        .insert(reviewDay)
        .values({
          userId: row.userId,
          localDate: row.localDate,
          timeZone: row.timeZone,
          reviews: 1,
          countedMs: row.countedMs,
          lastAt: row.countedAt,
        })
        .onConflictDoUpdate({
          target: [reviewDay.userId, reviewDay.localDate, reviewDay.timeZone],
          set: {
            reviews: sql`${reviewDay.reviews} + 1`,
            countedMs: sql`${reviewDay.countedMs} + excluded.counted_ms`,
            lastAt: sql`greatest(${reviewDay.lastAt}, excluded.last_at)`,
          },
        })
        .returning({ reviews: reviewDay.reviews, countedMs: reviewDay.countedMs });
      return day!;
    },

    /** The review the learner already sent with this clientId, if any. */
    async logOfClient(tx: Transaction, userId: string, clientId: string) {
      const [row] = await tx
        .select()
        .from(reviewLog)
        .where(and(eq(reviewLog.userId, userId), eq(reviewLog.clientId, clientId)));
      return row;
    },

    /** A day's reviews and counted time (review_day); zero when there is none. */
    async dayTotals(userId: string, date: string, timeZone: string): Promise<{ reviews: number; countedMs: number }> {
      const [row] = await db
        .select({ reviews: reviewDay.reviews, countedMs: reviewDay.countedMs })
        .from(reviewDay)
        .where(and(eq(reviewDay.userId, userId), eq(reviewDay.localDate, date), eq(reviewDay.timeZone, timeZone)));
      return row ?? { reviews: 0, countedMs: 0 };
    },

    async addLog(tx: Transaction, row: LoggedReview): Promise<void> {
      const { countedAt: _at, countedMs: _ms, ...logged } = row;
      await tx.insert(reviewLog).values(logged);
    },

    /** The card's reviews, as FSRS rebuilds the card from them. */
    cardEvents(tx: Transaction, userId: string, key: CardKey) {
      return tx
        .select({ clientId: reviewLog.clientId, rating: reviewLog.rating, reviewedAt: reviewLog.reviewedAt })
        .from(reviewLog)
        .where(cardWhere(reviewLog, userId, key));
    },
  };
}

/** What the log tells of a learner's activity: wrong answers, the last review, a day reviewed, the export. */
function learnerActivity(db: Database) {
  return {
    /** Reviews answered wrong, and the answers given, newest first. */
    wrongReviews(userId: string, chapterId?: string, q: Queryable = db) {
      return q
        .select({
          chapterId: reviewLog.chapterId,
          dayId: reviewLog.dayId,
          phraseId: reviewLog.phraseId,
          skill: reviewLog.skill,
          given: reviewLog.given,
        })
        .from(reviewLog)
        .where(
          and(
            eq(reviewLog.userId, userId),
            eq(reviewLog.grade, "wrong"),
            chapterId ? eq(reviewLog.chapterId, chapterId) : undefined,
          ),
        )
        .orderBy(desc(reviewLog.reviewedAt));
    },

    async lastReviewedAt(userId: string, q: Queryable = db): Promise<Date | null> {
      const [row] = await q
        .select({ at: max(reviewLog.reviewedAt) })
        .from(reviewLog)
        .where(eq(reviewLog.userId, userId));
      return row?.at instanceof Date ? row.at : null;
    },

    /** Whether the learner answered a review on this local date (in any zone): their review_day rows. */
    async reviewedOn(userId: string, date: string): Promise<boolean> {
      const [row] = await db
        .select({ reviews: reviewDay.reviews })
        .from(reviewDay)
        .where(and(eq(reviewDay.userId, userId), eq(reviewDay.localDate, date)))
        .limit(1);
      return row !== undefined;
    },

    /** The review log as Export My Data lists it, oldest first. */
    exportLog(userId: string) {
      return db
        .select({
          clientId: reviewLog.clientId,
          chapterId: reviewLog.chapterId,
          dayId: reviewLog.dayId,
          phraseId: reviewLog.phraseId,
          skill: reviewLog.skill,
          given: reviewLog.given,
          grade: reviewLog.grade,
          rating: reviewLog.rating,
          hinted: reviewLog.hinted,
          durationMs: reviewLog.durationMs,
          reviewedAt: reviewLog.reviewedAt,
          timeZone: reviewLog.timeZone,
          localDate: reviewLog.localDate,
        })
        .from(reviewLog)
        .where(eq(reviewLog.userId, userId))
        .orderBy(asc(reviewLog.reviewedAt), asc(reviewLog.clientId));
    },
  };
}
