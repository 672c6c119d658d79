import { and, asc, count, desc, eq, isNotNull, lte, max, or, sql } from "drizzle-orm";
import type { CardKey } from "#course/review-rules";
import type { ReviewCard } from "#course/review-schedule";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { reviewCard, reviewLog } from "#server/db/schema";

/**
 * The first half of the advisory lock a review answer takes per user (the answers module uses
 * 740_215, the contact form 740_214): one learner's reviews of a card are logged and the card
 * rebuilt one at a time, and a resend waits for the first send to commit.
 */
const REVIEW_LOCK_CLASS = 740_216;

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

const cardColumns = {
  chapterId: reviewCard.chapterId,
  dayId: reviewCard.dayId,
  phraseId: reviewCard.phraseId,
  skill: reviewCard.skill,
  reps: reviewCard.reps,
  lapses: reviewCard.lapses,
  due: reviewCard.due,
  pinnedAt: reviewCard.pinnedAt,
};

/** A card as review serves and ranks it. */
export type CardRow = Pick<typeof reviewCard.$inferSelect, keyof typeof cardColumns>;
/** A card as the deck gives it. */
export type NewCardRow = typeof reviewCard.$inferInsert;
/** A review as the log keeps it. */
export type NewLogRow = typeof reviewLog.$inferInsert;

/** A card is due once its time has come, or while a tutor's pin is on it. */
const isDueAt = (at: Date) => or(lte(reviewCard.due, at), isNotNull(reviewCard.pinnedAt));
const dueNow = (userId: string, at: Date) => and(eq(reviewCard.userId, userId), isDueAt(at));

/** The review module's tables: review_card (the deck) and review_log (every review answered). */
export function createReviewRepository(db: Database) {
  return {
    /** How many cards the learner holds of each day. */
    cardsPerDay(userId: string, q: Queryable = db) {
      return q
        .select({ chapterId: reviewCard.chapterId, dayId: reviewCard.dayId, cards: count() })
        .from(reviewCard)
        .where(eq(reviewCard.userId, userId))
        .groupBy(reviewCard.chapterId, reviewCard.dayId);
    },

    /** Adds cards the learner does not hold yet; those held stay as they are. */
    async addCards(rows: NewCardRow[], q: Queryable = db): Promise<void> {
      await q.insert(reviewCard).values(rows).onConflictDoNothing();
    },

    /**
     * Pins cards: added due now when missing, and each marked as pinned by the tutor. Throws the
     * foreign-key violation when the learner's account is gone.
     */
    async pinCards(rows: NewCardRow[], tutorId: string, at: Date, q: Queryable = db): Promise<void> {
      await q
        .insert(reviewCard)
        .values(rows.map((row) => ({ ...row, pinnedAt: at, pinnedBy: tutorId })))
        .onConflictDoUpdate({
          target: [reviewCard.userId, reviewCard.chapterId, reviewCard.dayId, reviewCard.phraseId, reviewCard.skill],
          set: { pinnedAt: at, pinnedBy: tutorId },
        });
    },

    /** The learner's reviews per local date and zone: their count, duration and last one, oldest last review first. */
    reviewGroups(userId: string, q: Queryable = db) {
      return q
        .select({
          date: reviewLog.localDate,
          timeZone: reviewLog.timeZone,
          reviews: count(),
          durationMs: sql<number>`coalesce(sum(${reviewLog.durationMs}), 0)::int`,
          lastAt: sql<Date>`max(${reviewLog.reviewedAt})`.mapWith(reviewLog.reviewedAt),
        })
        .from(reviewLog)
        .where(eq(reviewLog.userId, userId))
        .groupBy(reviewLog.localDate, reviewLog.timeZone)
        .orderBy(sql`max(${reviewLog.reviewedAt})`);
    },

    /** The deck, the cards due now and the next to fall due, in one pass over the learner's cards. */
    async deckCounts(userId: string, at: Date, q: Queryable = db) {
      const isDue = isDueAt(at);
      const [row] = await q
        .select({
          deck: count(),
          due: sql<number>`count(*) filter (where ${isDue})`.mapWith(Number),
          next: sql<Date | null>`min(${reviewCard.due}) filter (where not (${isDue}))`.mapWith(reviewCard.due),
        })
        .from(reviewCard)
        .where(eq(reviewCard.userId, userId));
      return row;
    },

    dueCards(userId: string, at: Date, q: Queryable = db): Promise<CardRow[]> {
      return q.select(cardColumns).from(reviewCard).where(dueNow(userId, at));
    },

    async dueCount(userId: string, at: Date, q: Queryable = db): Promise<number> {
      const [row] = await q.select({ cards: count() }).from(reviewCard).where(dueNow(userId, at));
      return row?.cards ?? 0;
    },

    /** The learner's cards, or those of one chapter. */
    cards(userId: string, chapterId?: string, q: Queryable = db): Promise<CardRow[]> {
      return q
        .select(cardColumns)
        .from(reviewCard)
        .where(and(eq(reviewCard.userId, userId), chapterId ? eq(reviewCard.chapterId, chapterId) : undefined));
    },

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

    /** Whether the learner answered a review on this local date. */
    async reviewedOn(userId: string, date: string): Promise<boolean> {
      const [row] = await db
        .select({ id: reviewLog.id })
        .from(reviewLog)
        .where(and(eq(reviewLog.userId, userId), eq(reviewLog.localDate, date)))
        .limit(1);
      return row !== undefined;
    },

    /** Makes the learner's reviews take turns until the transaction ends. */
    async lockLearner(tx: Transaction, userId: string): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${REVIEW_LOCK_CLASS}::int, hashtext(${userId}))`);
    },

    /** The review the learner already sent with this clientId, if any. */
    async logOfClient(tx: Transaction, userId: string, clientId: string) {
      const [row] = await tx
        .select()
        .from(reviewLog)
        .where(and(eq(reviewLog.userId, userId), eq(reviewLog.clientId, clientId)));
      return row;
    },

    async card(tx: Transaction, userId: string, key: CardKey) {
      const [row] = await tx
        .select()
        .from(reviewCard)
        .where(cardWhere(reviewCard, userId, key));
      return row;
    },

    async addLog(tx: Transaction, row: NewLogRow): Promise<void> {
      await tx.insert(reviewLog).values(row);
    },

    /** The card's reviews, as FSRS rebuilds the card from them. */
    cardEvents(tx: Transaction, userId: string, key: CardKey) {
      return tx
        .select({ clientId: reviewLog.clientId, rating: reviewLog.rating, reviewedAt: reviewLog.reviewedAt })
        .from(reviewLog)
        .where(cardWhere(reviewLog, userId, key));
    },

    /**
     * Stores the card as its log rebuilt it. A review answered before the tutor pinned the phrase
     * (sent late) leaves the pin.
     */
    async saveRebuilt(tx: Transaction, userId: string, key: CardKey, rebuilt: ReviewCard, reviewedAt: Date) {
      await tx
        .update(reviewCard)
        .set({
          state: rebuilt,
          due: rebuilt.due,
          reps: rebuilt.reps,
          lapses: rebuilt.lapses,
          lastReviewedAt: rebuilt.last_review ?? reviewedAt,
          pinnedAt: sql`case when ${reviewCard.pinnedAt} <= ${reviewedAt} then null else ${reviewCard.pinnedAt} end`,
          pinnedBy: sql`case when ${reviewCard.pinnedAt} <= ${reviewedAt} then null else ${reviewCard.pinnedBy} end`,
        })
        .where(cardWhere(reviewCard, userId, key));
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

    /** The cards as Export My Data lists them, in course-id order. */
    exportCards(userId: string) {
      return db
        .select({ ...cardColumns, metAt: reviewCard.metAt, lastReviewedAt: reviewCard.lastReviewedAt })
        .from(reviewCard)
        .where(eq(reviewCard.userId, userId))
        .orderBy(asc(reviewCard.chapterId), asc(reviewCard.dayId), asc(reviewCard.phraseId), asc(reviewCard.skill));
    },
  };
}

export type ReviewRepository = ReturnType<typeof createReviewRepository>;
