import { and, asc, count, eq, sql } from "drizzle-orm";
import type { CardKey } from "#course/review-rules";
import type { ReviewCard } from "#course/review-schedule";
import type { Database, Queryable, Transaction } from "#server/db/client";
import type { LentRead } from "#server/db/lent-read";
import { LOCK_CLASSES } from "#server/db/locks";
import type { KnownCard, KnownLearner } from "./review.known";
import {
  ANSWER_CONTEXT,
  type AnswerContext,
  type DeckCounts,
  datesAround,
  deckCounts,
  goalDaysSql,
  type HeldCards,
  logInOrderSql,
  type ReviewDayRow,
  ROUND_CARDS,
  type StoredCounts,
  summaryReadsSql,
} from "./review.sql";
import { reviewCard } from "./review.tables";
import { cardWhere, createReviewLogRepository, type LoggedReview } from "./review-log.repository";

export type { AnswerContext, DeckCounts, HeldCards, ReviewDayRow } from "./review.sql";
export { cardWhere, type LoggedReview, type NewLogRow } from "./review-log.repository";

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
/** A due card of a round, with what an answer to it reads (review.known.ts). */
export interface RoundCard extends CardRow {
  metAt: Date;
  /** The skill the card's phrase was last reviewed in, in any of its cards; null before its first review. */
  phraseLastSkill: CardRow["skill"] | null;
  known: KnownCard;
  learner: KnownLearner;
}
/** A card as the deck gives it. */
export type NewCardRow = typeof reviewCard.$inferInsert;

/** Days of reviews as a statement answers them in JSON (daysJson in review.sql.ts). */
type StoredDays = Array<Omit<ReviewDayRow, "lastAt"> & { lastAt: string }>;
const dayRowsOf = (days: StoredDays): ReviewDayRow[] => days.map((day) => ({ ...day, lastAt: new Date(day.lastAt) }));

/** The review module's tables: review_card (the deck) and review_log (every review answered). */
export function createReviewRepository(db: Database) {
  return {
    ...createReviewLogRepository(db),
    ...deckCards(db),
    ...summaryStatement(db),
    ...roundReads(db),
    ...inOrderAnswers(db),
    ...rebuiltCards(),
  };
}

/** The learner's deck: adding and pinning cards, listing them. */
function deckCards(db: Database) {
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

    /** The learner's cards, or those of one chapter. */
    cards(userId: string, chapterId?: string, q: Queryable = db): Promise<CardRow[]> {
      return q
        .select(cardColumns)
        .from(reviewCard)
        .where(and(eq(reviewCard.userId, userId), chapterId ? eq(reviewCard.chapterId, chapterId) : undefined));
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

/** What the summary reads, in one statement, and what an answer judges the goal and the streak by. */
function summaryStatement(db: Database) {
  return {
    /**
     * The goal `goalRead` lends and the learner's days of reviews from `since` on (goalDaysSql), in
     * one statement: what an answer that took another way than logInOrder judges the goal by.
     */
    goalDays<Goal>(goalRead: LentRead<Goal>) {
      const text = goalDaysSql(goalRead.sql);
      return async (userId: string, since: string): Promise<{ goal: Goal; days: ReviewDayRow[] }> => {
        const { rows } = await db.$client.query<{ goal: unknown; days: StoredDays }>({
          name: "review_goal_days",
          text,
          values: [userId, since],
        });
        const { goal, days } = rows[0]!;
        return { goal: goalRead.read(goal), days: dayRowsOf(days) };
      };
    },

    /**
     * What a summary reads, days from `since` on, with what the other modules lend it (`lent`, read
     * back in the same order), in one prepared statement (summaryReadsSql): one round trip in all.
     */
    summaryReads<const Lent extends readonly LentRead<unknown>[]>(lent: Lent) {
      const text = summaryReadsSql(lent);
      return async (
        userId: string,
        since: string,
        at: Date,
      ): Promise<{
        lent: { [K in keyof Lent]: Lent[K] extends LentRead<infer T> ? T : never };
        days: ReviewDayRow[];
        counts: DeckCounts;
        held: HeldCards[];
      }> => {
        const { rows } = await db.$client.query<{
          lent: unknown[];
          days: StoredDays;
          counts: StoredCounts;
          held: HeldCards[];
        }>({ name: "review_summary_reads", text, values: [userId, since, at, ...datesAround(at)] });
        const { lent: lentJson, days, counts, held } = rows[0]!;
        return {
          lent: lent.map((read, index) => read.read(lentJson[index])) as {
            [K in keyof Lent]: Lent[K] extends LentRead<infer T> ? T : never;
          },
          days: dayRowsOf(days),
          counts: deckCounts(counts, at),
          held,
        };
      };
    },
  };
}

/** The round's cards, with what their answers read. */
function roundReads(db: Database) {
  return {
    /** The cards due now (ROUND_CARDS), each with what an answer to it reads. */
    async roundCards(userId: string, at: Date): Promise<RoundCard[]> {
      const { rows } = await db.$client.query<{
        chapter_id: string;
        day_id: string;
        phrase_id: string;
        skill: CardRow["skill"];
        reps: number;
        lapses: number;
        due: Date;
        pinned_at: Date | null;
        met_at: Date;
        state: unknown;
        last_reviewed_at: Date | null;
        account_zone: string;
        previous_received_at: Date | null;
        phrase_last_skill: CardRow["skill"] | null;
      }>({ name: "review_round_cards", text: ROUND_CARDS, values: [userId, at] });
      return rows.map((row) => ({
        chapterId: row.chapter_id,
        dayId: row.day_id,
        phraseId: row.phrase_id,
        skill: row.skill,
        reps: row.reps,
        lapses: row.lapses,
        due: row.due,
        pinnedAt: row.pinned_at,
        metAt: row.met_at,
        phraseLastSkill: row.phrase_last_skill,
        known: { metAt: row.met_at, state: row.state, reps: row.reps, lastReviewedAt: row.last_reviewed_at },
        learner: { accountZone: row.account_zone, previousReceivedAt: row.previous_received_at },
      }));
    },
  };
}

/** An in-order answer: what it reads, then its one write. */
function inOrderAnswers(db: Database) {
  return {
    /** What a review answer needs to know (ANSWER_CONTEXT); undefined when the account is gone. */
    async answerContext(userId: string, key: CardKey, clientId: string): Promise<AnswerContext | undefined> {
      const { rows } = await db.$client.query<AnswerContext>({
        name: "review_answer_context",
        text: ANSWER_CONTEXT,
        values: [userId, key.chapterId, key.dayId, key.phraseId, key.skill, clientId],
      });
      return rows[0];
    },

    /**
     * Logs an in-order review and moves its card from the state read (`read`) to `next`
     * (logInOrderSql, with the goal `goalRead` lends). Answers whether the card was still as read,
     * whether the review was logged, its day's reviews and counted time after it, and the goal and
     * the learner's days of reviews from `since` on, as they are after it.
     */
    logInOrder<Goal>(goalRead: LentRead<Goal>) {
      const text = logInOrderSql(goalRead.sql);
      return async (
        row: LoggedReview,
        read: {
          reps: number;
          lastReviewedAt: Date | null;
          metAt: Date;
          /** The account's zone as read, when the review took it (it sent none); null otherwise. */
          accountZone: string | null;
          previousReceivedAt: Date | null;
        },
        next: ReviewCard,
        since: string,
      ): Promise<{
        fresh: boolean;
        logged: boolean;
        dayReviews: number | null;
        dayCountedMs: number | null;
        goal: Goal;
        days: ReviewDayRow[];
      }> => {
        const { rows } = await db.$client.query<{
          fresh: boolean;
          logged: boolean;
          day_reviews: number | null;
          day_counted_ms: string | null;
          goal: unknown;
          days: StoredDays;
        }>({
          name: "review_log_in_order",
          text,
          values: [
            row.userId,
            row.chapterId,
            row.dayId,
            row.phraseId,
            row.skill,
            row.clientId,
            read.reps,
            read.lastReviewedAt,
            JSON.stringify(row.given),
            row.grade,
            row.rating,
            row.hinted ?? false,
            row.durationMs,
            row.reviewedAt,
            row.timeZone,
            row.localDate,
            row.receivedAt,
            JSON.stringify(next),
            next.due,
            next.reps,
            next.lapses,
            next.last_review ?? row.reviewedAt,
            row.countedMs,
            row.countedAt,
            read.metAt,
            read.accountZone,
            read.previousReceivedAt,
            since,
          ],
        });
        const result = rows[0]!;
        return {
          fresh: result.fresh,
          logged: result.logged,
          dayReviews: result.day_reviews,
          dayCountedMs: result.day_counted_ms === null ? null : Number(result.day_counted_ms),
          goal: goalRead.read(result.goal),
          days: dayRowsOf(result.days),
        };
      };
    },
  };
}

/** A review out of order: the learner's reviews take turns and the card is rebuilt from its log. */
function rebuiltCards() {
  return {
    /** Makes the learner's reviews take turns until the transaction ends. */
    async lockLearner(tx: Transaction, userId: string): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASSES.review}::int, hashtext(${userId}))`);
    },

    /** The learner's card; with forUpdate, locked until the transaction ends. */
    async card(tx: Transaction, userId: string, key: CardKey, { forUpdate = false } = {}) {
      const query = tx
        .select()
        .from(reviewCard)
        .where(cardWhere(reviewCard, userId, key));
      const [row] = await (forUpdate ? query.for("update") : query);
      return row;
    },

    /**
     * Stores the card as its log rebuilt it. A review answered before the tutor pinned the phrase
     * (sent late) leaves the pin.
     */
    async saveRebuilt(
      tx: Transaction,
      userId: string,
      key: CardKey,
      rebuilt: ReviewCard,
      review: { reviewedAt: Date; localDate: string },
    ) {
      const { reviewedAt } = review;
      await tx
        .update(reviewCard)
        .set({
          state: rebuilt,
          due: rebuilt.due,
          reps: rebuilt.reps,
          lapses: rebuilt.lapses,
          lastReviewedAt: rebuilt.last_review ?? reviewedAt,
          firstReviewedOn: sql`coalesce(${reviewCard.firstReviewedOn}, ${review.localDate})`,
          pinnedAt: sql`case when ${reviewCard.pinnedAt} <= ${reviewedAt} then null else ${reviewCard.pinnedAt} end`,
          pinnedBy: sql`case when ${reviewCard.pinnedAt} <= ${reviewedAt} then null else ${reviewCard.pinnedBy} end`,
        })
        .where(cardWhere(reviewCard, userId, key));
    },
  };
}

export type ReviewRepository = ReturnType<typeof createReviewRepository>;
