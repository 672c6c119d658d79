import { and, asc, count, desc, eq, max, sql } from "drizzle-orm";
import type { Grade } from "#course/grading";
import type { ReviewGiven } from "#course/review-items";
import type { CardKey } from "#course/review-rules";
import type { ReviewCard } from "#course/review-schedule";
import type { Database, Queryable, Transaction } from "#server/db/client";
import type { LentRead } from "#server/db/lent-read";
import { LOCK_CLASSES } from "#server/db/locks";
import { reviewCard, reviewDay, reviewLog } from "#server/db/schema";
import type { KnownCard, KnownLearner } from "./review.known";

/**
 * What a review answer reads, in one statement: the account's zone (no row: no such account), the
 * card (nulls when the learner does not hold it), the review already sent with this clientId, and
 * when the server received the learner's previous review.
 */
const ANSWER_CONTEXT = `
  select account.time_zone as account_zone,
    card.met_at, card.state, card.reps, card.last_reviewed_at, card.due,
    sent.chapter_id as sent_chapter_id, sent.day_id as sent_day_id, sent.phrase_id as sent_phrase_id,
    sent.skill as sent_skill, sent.given as sent_given, sent.grade as sent_grade, sent.rating as sent_rating,
    sent.local_date as sent_local_date, sent.time_zone as sent_time_zone,
    (select max(received_at) from review_log where user_id = $1) as previous_received_at
  from "user" account
  left join review_card card
    on card.user_id = account.id and card.chapter_id = $2 and card.day_id = $3 and card.phrase_id = $4 and card.skill = $5
  left join review_log sent on sent.user_id = account.id and sent.client_id = $6
  where account.id = $1`;

/**
 * An in-order review in one statement: the card is locked and must still be as it was read ($7
 * reps, $8 last review, $25 met), with the account's zone ($26, when the review took it) and the
 * learner's latest review ($27) as they were read; then the review is logged (a clientId sent
 * before logs nothing), the card takes its next state, and the review is added to its day
 * (review_day). `fresh` false: something read changed since (another review landed first, the zone
 * changed), and nothing was written.
 */
const LOG_IN_ORDER = `
  with card as (
    select 1 from review_card
    where user_id = $1 and chapter_id = $2 and day_id = $3 and phrase_id = $4 and skill = $5
      and reps = $7 and last_reviewed_at is not distinct from $8::timestamptz and met_at = $25
      and ($26::text is null or exists (select from "user" where id = $1 and time_zone = $26))
      and (select max(received_at) from review_log where user_id = $1) is not distinct from $27::timestamptz
    for update
  ),
  logged as (
    insert into review_log (user_id, client_id, chapter_id, day_id, phrase_id, skill, given, grade, rating,
      hinted, duration_ms, reviewed_at, time_zone, local_date, received_at)
    select $1, $6, $2, $3, $4, $5, $9::jsonb, $10, $11, $12, $13, $14, $15, $16, $17 from card
    on conflict (user_id, client_id) do nothing
    returning 1
  ),
  saved as (
    update review_card set state = $18::jsonb, due = $19, reps = $20, lapses = $21, last_reviewed_at = $22,
      first_reviewed_on = coalesce(first_reviewed_on, $16),
      pinned_at = case when pinned_at <= $14 then null else pinned_at end,
      pinned_by = case when pinned_at <= $14 then null else pinned_by end
    where user_id = $1 and chapter_id = $2 and day_id = $3 and phrase_id = $4 and skill = $5
      and exists (select from logged)
    returning 1
  ),
  counted as (
    insert into review_day (user_id, local_date, time_zone, reviews, counted_ms, last_at)
    select $1, $16, $15, 1, $23, $24 from logged
    on conflict (user_id, local_date, time_zone) do update set
      reviews = review_day.reviews + 1,
      counted_ms = review_day.counted_ms + excluded.counted_ms,
      last_at = greatest(review_day.last_at, excluded.last_at)
    returning reviews, counted_ms
  )
  select exists (select from card) as fresh, exists (select from logged) as logged,
    (select reviews from counted) as day_reviews, (select counted_ms from counted) as day_counted_ms`;

/**
 * The round's due cards ($2 is now; new ones among them before the daily limit) with what an answer
 * to each needs (their state, the account's zone, the learner's latest review), and the skill their
 * phrase was last reviewed in, in one statement.
 */
const ROUND_CARDS = `
  select card.chapter_id, card.day_id, card.phrase_id, card.skill, card.reps, card.lapses, card.due, card.pinned_at,
    card.met_at, card.state, card.last_reviewed_at,
    account.time_zone as account_zone,
    (select max(received_at) from review_log where user_id = $1) as previous_received_at,
    (select sibling.skill from review_card sibling
      where sibling.user_id = $1 and sibling.chapter_id = card.chapter_id and sibling.day_id = card.day_id
        and sibling.phrase_id = card.phrase_id and sibling.last_reviewed_at is not null
      order by sibling.last_reviewed_at desc limit 1) as phrase_last_skill
  from review_card card join "user" account on account.id = card.user_id
  where card.user_id = $1 and (card.due <= $2 or card.pinned_at is not null)`;

/**
 * A learner's deck as the summary counts it ($1 the user, $3 now, $4-$6 three dates): its size, the
 * started cards due (reviewed before, or pinned by a tutor: never limited), the new cards due (met,
 * never reviewed: the daily limit picks from these), when the next started card falls due, and the
 * new cards started on each of the three dates (yesterday, today and tomorrow in UTC: the learner's
 * today is one of them, whatever their zone).
 */
const DECK_COUNTS = `
  select json_build_object(
    'deck', count(*),
    'startedDue', count(*) filter (where pinned_at is not null or (reps > 0 and due <= $3)),
    'newDue', count(*) filter (where pinned_at is null and reps = 0 and due <= $3),
    'next', min(due) filter (where pinned_at is null and due > $3),
    'startedOn', json_build_array(
      count(*) filter (where first_reviewed_on = $4),
      count(*) filter (where first_reviewed_on = $5),
      count(*) filter (where first_reviewed_on = $6))
  )
  from review_card where user_id = $1`;

/**
 * What a summary reads, in one statement: the reads other modules lend it (each yields one JSON
 * value for the user $1), the learner's days of reviews on or after $2 (oldest last review first),
 * the deck's size, due count ($3 is now) and next due time, and the cards held per day (what the
 * deck's sync compares with the days met).
 */
const summaryReadsSql = (lent: readonly LentRead<unknown>[]) => `
  select
    json_build_array(${lent.map((read) => read.sql).join(", ")}) as lent,
    (select coalesce(json_agg(json_build_object(
        'date', local_date, 'timeZone', time_zone, 'reviews', reviews, 'durationMs', counted_ms, 'lastAt', last_at
      ) order by last_at), '[]'::json)
      from review_day where user_id = $1 and local_date >= $2) as days,
    (${DECK_COUNTS}) as counts,
    (select coalesce(json_agg(json_build_object('chapterId', chapter_id, 'dayId', day_id, 'cards', cards)), '[]'::json)
      from (select chapter_id, day_id, count(*)::int as cards from review_card where user_id = $1 group by chapter_id, day_id) held
    ) as held`;

/** A learner's reviews of one local date in one zone, as the summary reads them. */
export interface ReviewDayRow {
  date: string;
  timeZone: string;
  reviews: number;
  durationMs: number;
  lastAt: Date;
}

/**
 * The deck's size, the started cards due now and the new ones, when the next started card not yet
 * due falls due, and the new cards started per date (of the three dates asked about).
 */
export interface DeckCounts {
  deck: number;
  startedDue: number;
  newDue: number;
  next: Date | null;
  startedOn: Map<string, number>;
}

/** The three UTC dates around `at`: the learner's local date is one of them, in any zone. */
function datesAround(at: Date): [string, string, string] {
  const utc = (days: number) => new Date(at.getTime() + days * 86_400_000).toISOString().slice(0, 10);
  return [utc(-1), utc(0), utc(1)];
}

/** The cards a learner holds of a day. */
export interface HeldCards {
  chapterId: string;
  dayId: string;
  cards: number;
}

/** What ANSWER_CONTEXT reads. */
export interface AnswerContext {
  account_zone: string;
  met_at: Date | null;
  state: unknown;
  reps: number | null;
  last_reviewed_at: Date | null;
  due: Date | null;
  sent_chapter_id: string | null;
  sent_day_id: string | null;
  sent_phrase_id: string | null;
  sent_skill: string | null;
  sent_given: ReviewGiven | null;
  sent_grade: Grade | null;
  sent_rating: number | null;
  sent_local_date: string | null;
  sent_time_zone: string | null;
  previous_received_at: Date | null;
}

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
/** A review as the log keeps it. */
export type NewLogRow = typeof reviewLog.$inferInsert;

/** DECK_COUNTS as the statement answers it. */
interface StoredCounts {
  deck: number;
  startedDue: number;
  newDue: number;
  next: string | null;
  startedOn: [number, number, number];
}

function deckCounts(counts: StoredCounts, at: Date): DeckCounts {
  const dates = datesAround(at);
  return {
    deck: counts.deck,
    startedDue: counts.startedDue,
    newDue: counts.newDue,
    next: counts.next === null ? null : new Date(counts.next),
    startedOn: new Map(dates.map((date, index) => [date, counts.startedOn[index]!])),
  };
}

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
          days: Array<Omit<ReviewDayRow, "lastAt"> & { lastAt: string }>;
          counts: StoredCounts;
          held: HeldCards[];
        }>({ name: "review_summary_reads", text, values: [userId, since, at, ...datesAround(at)] });
        const { lent: lentJson, days, counts, held } = rows[0]!;
        return {
          lent: lent.map((read, index) => read.read(lentJson[index])) as {
            [K in keyof Lent]: Lent[K] extends LentRead<infer T> ? T : never;
          },
          days: days.map((day) => ({ ...day, lastAt: new Date(day.lastAt) })),
          counts: deckCounts(counts, at),
          held,
        };
      };
    },

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
     * (LOG_IN_ORDER). Answers whether the card was still as read, whether the review was logged,
     * and its day's reviews and counted time after it.
     */
    async logInOrder(
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
    ): Promise<{ fresh: boolean; logged: boolean; dayReviews: number | null; dayCountedMs: number | null }> {
      const { rows } = await db.$client.query<{
        fresh: boolean;
        logged: boolean;
        day_reviews: number | null;
        day_counted_ms: string | null;
      }>({
        name: "review_log_in_order",
        text: LOG_IN_ORDER,
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
        ],
      });
      const result = rows[0]!;
      return {
        fresh: result.fresh,
        logged: result.logged,
        dayReviews: result.day_reviews,
        dayCountedMs: result.day_counted_ms === null ? null : Number(result.day_counted_ms),
      };
    },

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

    /** Whether the learner answered a review on this local date (in any zone): their review_day rows. */
    async reviewedOn(userId: string, date: string): Promise<boolean> {
      const [row] = await db
        .select({ reviews: reviewDay.reviews })
        .from(reviewDay)
        .where(and(eq(reviewDay.userId, userId), eq(reviewDay.localDate, date)))
        .limit(1);
      return row !== undefined;
    },

    /** Makes the learner's reviews take turns until the transaction ends. */
    async lockLearner(tx: Transaction, userId: string): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASSES.review}::int, hashtext(${userId}))`);
    },

    /** The review the learner already sent with this clientId, if any. */
    async logOfClient(tx: Transaction, userId: string, clientId: string) {
      const [row] = await tx
        .select()
        .from(reviewLog)
        .where(and(eq(reviewLog.userId, userId), eq(reviewLog.clientId, clientId)));
      return row;
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
