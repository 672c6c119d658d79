import { createHmac, timingSafeEqual } from "node:crypto";
import { and, asc, count, desc, eq, isNotNull, lte, max, ne, or, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { z } from "zod";
import { type Chapter, courseAudioPath } from "#course/course";
import type { Given } from "#course/exercise-schema";
import { checkGiven, type Grade, grade } from "#course/grading";
import type {
  HardestCards,
  ReviewAnswerResponse,
  ReviewExercise,
  ReviewRound,
  ReviewSummary,
  reviewAnswerRequestSchema,
  StruggleReport,
  WeakPhrase,
} from "#course/review-contract";
import {
  type CardKey,
  cardId,
  coursePhrases,
  type DailyGoalUnit,
  givenText,
  type Phrase,
  parseCardId,
  REVIEW_SKILLS,
  ROUND_SIZE,
  reviewItem,
  WEAKEST_LIMIT,
} from "#course/review-rules";
import {
  daysBetween,
  type GoalDay,
  localDate,
  newCard,
  type ReviewCard,
  ratingFor,
  rebuildCard,
  streak,
} from "#course/review-schedule";
import type { Database } from "#server/db/client";
import { answer, dailyGoalChange, reviewCard, reviewLog, reviewReminder, taskProgress, user } from "#server/db/schema";
import { badRequest, HttpError } from "#server/http/errors";
import type { Mailer } from "#server/mail/mailer";
import { requireAccount, unlessUserVanished } from "#server/modules/users/users.service";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Queryable = Database | Transaction;
type AnswerInput = z.output<typeof reviewAnswerRequestSchema>;

/**
 * The first half of the advisory lock a review answer takes per user (the answers module uses
 * 740_215, the contact form 740_214): one learner's reviews of a card are logged and the card
 * rebuilt one at a time, and a resend waits for the first send to commit.
 */
const REVIEW_LOCK_CLASS = 740_216;
/** A review may arrive this late (answered offline) and still be logged. */
export const LATE_REVIEW_MS = 7 * 24 * 3_600_000;
/** Clocks differ a little: a review stamped up to this far ahead of the server is taken as now. */
const CLOCK_SKEW_MS = 60_000;

/** A phrase of a day, as a tutor pins it. */
export interface PinTarget {
  chapterId: string;
  dayId: string;
  phraseId: string;
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

const phraseKey = (chapterId: string, dayId: string, phraseId: string) => `${chapterId}/${dayId}/${phraseId}`;

/** Reviews of one day of the learner's: where it was, how many, how long, and the last one's time. */
interface ReviewDay {
  date: string;
  timeZone: string;
  reviews: number;
  durationMs: number;
  lastAt: Date;
}

type DayPlace = Pick<ReviewDay, "date" | "timeZone" | "lastAt">;

type Goal = { unit: DailyGoalUnit; amount: number };

/**
 * The goal in force at the end of `date`: that of the last change on or before it (`changes` are in
 * date order), or, before the first change, the goal the learner had then; without changes, the goal
 * they have now.
 */
function goalOn(date: string, changes: readonly (typeof dailyGoalChange.$inferSelect)[], current: Goal): Goal {
  const first = changes[0];
  if (!first) return current;
  const last = changes.findLast((change) => change.localDate <= date);
  return last ? { unit: last.unit, amount: last.amount } : { unit: first.previousUnit, amount: first.previousAmount };
}

/**
 * Whether a later day of reviews falls on the same calendar day as an earlier one, counted in
 * whichever of their two zones makes them closer (the rule streak() counts days apart by).
 */
function sameDay(earlier: DayPlace, later: DayPlace) {
  return (
    daysBetween(earlier.date, localDate(later.lastAt, earlier.timeZone)) === 0 ||
    daysBetween(localDate(earlier.lastAt, later.timeZone), later.date) === 0
  );
}

export interface ReviewDeps {
  db: Database;
  course: readonly Chapter[];
  /** The clock: tests move it. */
  now?: () => Date;
}

/** A phrase's cards, one per skill, never reviewed and due from when it was met. */
function newCards(userId: string, phrase: Phrase, metAt: Date) {
  const card = newCard(metAt);
  return REVIEW_SKILLS.map((skill) => ({
    userId,
    chapterId: phrase.chapterId,
    dayId: phrase.dayId,
    phraseId: phrase.id,
    skill,
    metAt,
    due: card.due,
    state: card,
  }));
}

/**
 * Review of what a learner has met (docs/decisions/039-review-deck.md). A phrase is met once its
 * day's phrase cards or practice set has been started; it then has a card per skill. Every review
 * is a row of the log, and the card is rebuilt from its log after each one.
 */
export function createReviewService({ db, course, now = () => new Date() }: ReviewDeps) {
  const phrases = coursePhrases(course);
  const phraseByKey = new Map(phrases.map((phrase) => [phraseKey(phrase.chapterId, phrase.dayId, phrase.id), phrase]));
  /** Per day with phrases: the tasks whose start means the learner met them (phrase cards, practice). */
  const meetingTasks = new Map<string, { chapterId: string; dayId: string; taskIds: Set<string>; phrases: Phrase[] }>();
  for (const chapter of course) {
    for (const day of chapter.days) {
      if (day.vocabulary.length === 0) continue;
      const taskIds = new Set<string>();
      for (const block of day.codebook?.blocks ?? []) {
        if (block.type === "vocabulary-cards" || block.type === "practice") taskIds.add(block.task.id);
      }
      meetingTasks.set(`${chapter.id}/${day.id}`, {
        chapterId: chapter.id,
        dayId: day.id,
        taskIds,
        phrases: phrases.filter((phrase) => phrase.chapterId === chapter.id && phrase.dayId === day.id),
      });
    }
  }
  const courseOrder = new Map(
    phrases.map((phrase, index) => [phraseKey(phrase.chapterId, phrase.dayId, phrase.id), index]),
  );

  /**
   * Gives the learner a card per skill of every phrase of the days they have met and no card yet,
   * due from now. Reads first and writes only for a day short of cards.
   */
  async function syncDeck(q: Queryable, userId: string, at: Date): Promise<void> {
    const [started, held] = await Promise.all([
      q
        .select({ chapterId: taskProgress.chapterId, dayId: taskProgress.sectionId, taskId: taskProgress.taskId })
        .from(taskProgress)
        .where(and(eq(taskProgress.userId, userId), ne(taskProgress.status, "not-started"))),
      q
        .select({ chapterId: reviewCard.chapterId, dayId: reviewCard.dayId, cards: count() })
        .from(reviewCard)
        .where(eq(reviewCard.userId, userId))
        .groupBy(reviewCard.chapterId, reviewCard.dayId),
    ]);
    const cardsHeld = new Map(held.map((row) => [`${row.chapterId}/${row.dayId}`, row.cards]));
    const metDays = new Set<string>();
    for (const row of started) {
      const key = `${row.chapterId}/${row.dayId}`;
      if (meetingTasks.get(key)?.taskIds.has(row.taskId)) metDays.add(key);
    }
    const missing = [...metDays].filter(
      (key) => (cardsHeld.get(key) ?? 0) < meetingTasks.get(key)!.phrases.length * REVIEW_SKILLS.length,
    );
    if (missing.length === 0) return;
    const rows = missing.flatMap((key) =>
      meetingTasks.get(key)!.phrases.flatMap((phrase) => newCards(userId, phrase, at)),
    );
    await q.insert(reviewCard).values(rows).onConflictDoNothing();
  }

  async function accountSettings(q: Queryable, userId: string) {
    const [row] = await q
      .select({
        unit: user.dailyGoalUnit,
        amount: user.dailyGoal,
        timeZone: user.timeZone,
      })
      .from(user)
      .where(eq(user.id, userId));
    if (!row) throw new HttpError(404, "NOT_FOUND", "This account no longer exists.");
    return row;
  }

  /**
   * The learner's days with reviews, oldest first: each with its local date and time zone (those of
   * its last review), its reviews, their duration and its last review. Reviews are taken per local
   * date and zone, and two such groups are one day when, counted in whichever of their zones makes
   * them closer, they fall on the same date (decision 038): reviews before and after a short flight
   * add up to one day, while "3 March" in Kiritimati and "3 March" in Honolulu a day later stay two.
   */
  async function reviewDays(q: Queryable, userId: string): Promise<ReviewDay[]> {
    const groups = await q
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
    const days: ReviewDay[] = [];
    for (const group of groups) {
      const previous = days.at(-1);
      if (previous && sameDay(previous, group)) {
        days[days.length - 1] = {
          ...group,
          reviews: previous.reviews + group.reviews,
          durationMs: previous.durationMs + group.durationMs,
        };
      } else {
        days.push(group);
      }
    }
    return days;
  }

  const metGoal = (goal: Goal, day: { reviews: number; durationMs: number }) =>
    goal.unit === "reviews" ? day.reviews >= goal.amount : day.durationMs >= goal.amount * 60_000;

  /** A card is due once its time has come, or while a tutor's pin is on it. */
  const isDueAt = (at: Date) => or(lte(reviewCard.due, at), isNotNull(reviewCard.pinnedAt));
  const dueNow = (userId: string, at: Date) => and(eq(reviewCard.userId, userId), isDueAt(at));

  /** The summary, read after syncing the deck. `timeZone` is where the learner is now. */
  async function summaryOf(q: Queryable, userId: string, at: Date, timeZone?: string): Promise<ReviewSummary> {
    const isDue = isDueAt(at);
    const [settings, days, changes, [cards]] = await Promise.all([
      accountSettings(q, userId),
      reviewDays(q, userId),
      q
        .select()
        .from(dailyGoalChange)
        .where(eq(dailyGoalChange.userId, userId))
        .orderBy(asc(dailyGoalChange.localDate)),
      // The deck, the cards due now and the next to fall due, in one pass over the learner's cards.
      q
        .select({
          deck: count(),
          due: sql<number>`count(*) filter (where ${isDue})`.mapWith(Number),
          next: sql<Date | null>`min(${reviewCard.due}) filter (where not (${isDue}))`.mapWith(reviewCard.due),
        })
        .from(reviewCard)
        .where(eq(reviewCard.userId, userId)),
    ]);
    const zone = timeZone ?? settings.timeZone;
    const now = { date: localDate(at, zone), timeZone: zone, lastAt: at };
    const last = days.at(-1);
    const todays = last && sameDay(last, now) ? last : { reviews: 0, durationMs: 0 };
    // Today is judged by the goal set now, a past day by the goal in force at its end.
    const goalDays: GoalDay[] = days
      .filter((day) => metGoal(day === todays ? settings : goalOn(day.date, changes, settings), day))
      .map((day) => ({ date: day.date, timeZone: day.timeZone, metAt: day.lastAt }));
    return {
      due: cards?.due ?? 0,
      nextDueAt: cards?.next ? cards.next.toISOString() : null,
      deckSize: cards?.deck ?? 0,
      today: { reviews: todays.reviews, minutes: Math.round(todays.durationMs / 6_000) / 10 },
      goal: { unit: settings.unit, amount: settings.amount },
      goalMet: metGoal(settings, todays),
      streak: streak(goalDays, at, zone),
      timeZone: zone,
    };
  }

  function phraseOf(key: { chapterId: string; dayId: string; phraseId: string }): Phrase | undefined {
    return phraseByKey.get(phraseKey(key.chapterId, key.dayId, key.phraseId));
  }

  function exercise(card: CardKey & { reps: number; pinnedAt: Date | null }): ReviewExercise | null {
    const phrase = phraseOf(card);
    if (!phrase) return null;
    return {
      cardId: cardId(card),
      skill: card.skill,
      item: reviewItem(phrase, card.skill, phrases),
      audio: courseAudioPath(phrase.chapterId, phrase.dayId, phrase.id),
      dayNumber: phrase.dayNumber,
      dayTitle: phrase.dayTitle,
      fromTutor: card.pinnedAt !== null,
      isNew: card.reps === 0,
    };
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
  type CardRow = Pick<typeof reviewCard.$inferSelect, keyof typeof cardColumns>;

  /**
   * The order due cards are served in: pinned by a tutor first, then cards already reviewed (those
   * being learnt come back first, being due soonest), then new ones, each skill across the phrases
   * in course order (every phrase recognised before any is recalled).
   */
  function servingOrder(a: CardRow, b: CardRow): number {
    const pinned = Number(a.pinnedAt === null) - Number(b.pinnedAt === null);
    if (pinned !== 0) return pinned;
    const fresh = Number(a.reps === 0) - Number(b.reps === 0);
    if (fresh !== 0) return fresh;
    const due = a.reps > 0 ? a.due.getTime() - b.due.getTime() : 0;
    if (due !== 0) return due;
    // New cards, and cards due at the same moment: each skill across the phrases in course order,
    // so the same deck is always served in the same order.
    const skill = REVIEW_SKILLS.indexOf(a.skill) - REVIEW_SKILLS.indexOf(b.skill);
    if (skill !== 0) return skill;
    return (
      (courseOrder.get(phraseKey(a.chapterId, a.dayId, a.phraseId)) ?? 0) -
      (courseOrder.get(phraseKey(b.chapterId, b.dayId, b.phraseId)) ?? 0)
    );
  }

  const toExercises = (rows: readonly CardRow[]) =>
    rows.flatMap((row) => {
      const served = exercise(row);
      return served ? [served] : [];
    });

  /** Weakness per card or phrase: reviews answered wrong, and the answers given, newest first. */
  async function wrongReviews(q: Queryable, userId: string, chapterId?: string) {
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
  }

  /** A card or phrase's weight: wrong answers and lapses count the same. */
  function weakness<T extends { lapses: number }>(
    rows: readonly T[],
    wrongs: Map<string, number>,
    keyOf: (row: T) => string,
  ) {
    return rows
      .map((row) => ({ row, wrong: wrongs.get(keyOf(row)) ?? 0 }))
      .filter(({ row, wrong }) => wrong + row.lapses > 0)
      .sort((a, b) => b.wrong + b.row.lapses - (a.wrong + a.row.lapses));
  }

  function countBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const row of rows) counts.set(keyOf(row), (counts.get(keyOf(row)) ?? 0) + 1);
    return counts;
  }

  async function lastActivity(q: Queryable, userId: string): Promise<Date | null> {
    const [[reviewed], [answered], [saved]] = await Promise.all([
      q
        .select({ at: max(reviewLog.reviewedAt) })
        .from(reviewLog)
        .where(eq(reviewLog.userId, userId)),
      q
        .select({ at: max(answer.answeredAt) })
        .from(answer)
        .where(eq(answer.userId, userId)),
      q
        .select({ at: max(taskProgress.updatedAt) })
        .from(taskProgress)
        .where(eq(taskProgress.userId, userId)),
    ]);
    const times = [reviewed?.at, answered?.at, saved?.at].filter((at): at is Date => at instanceof Date);
    return times.length === 0 ? null : new Date(Math.max(...times.map((at) => at.getTime())));
  }

  /** The response to a review, read in its transaction: the grade, the right answer, the card's next due. */
  function answerResponse(
    phrase: Phrase,
    graded: { grade: Grade; correct: { text: string; answer: Given } },
    rating: number,
    nextDue: Date,
    summary: ReviewSummary,
  ): ReviewAnswerResponse {
    return {
      result: graded.grade,
      correct: {
        text: graded.correct.text,
        answer: graded.correct.answer,
        audio: courseAudioPath(phrase.chapterId, phrase.dayId, phrase.id),
      },
      rating,
      nextDueAt: nextDue.toISOString(),
      summary,
    };
  }

  return {
    /**
     * Keeps a change of the learner's daily goal, dated where they are (`timeZone`), in the
     * transaction that changes it: a second change the same day keeps that day's first "before".
     */
    async recordGoalChange(q: Queryable, userId: string, change: { before: Goal; after: Goal; timeZone: string }) {
      const at = now();
      const { before, after } = change;
      await q
        .insert(dailyGoalChange)
        .values({
          userId,
          localDate: localDate(at, change.timeZone),
          unit: after.unit,
          amount: after.amount,
          previousUnit: before.unit,
          previousAmount: before.amount,
          changedAt: at,
        })
        .onConflictDoUpdate({
          target: [dailyGoalChange.userId, dailyGoalChange.localDate],
          set: { unit: after.unit, amount: after.amount, changedAt: at },
        });
    },

    /** The summary My Journey and the header show. */
    async summary(userId: string, timeZone?: string): Promise<ReviewSummary> {
      const at = now();
      await syncDeck(db, userId, at);
      return summaryOf(db, userId, at, timeZone);
    },

    /** The summary and the next round: up to ROUND_SIZE due cards, in serving order. */
    async round(userId: string, timeZone?: string): Promise<ReviewRound> {
      const at = now();
      await syncDeck(db, userId, at);
      const [summary, due] = await Promise.all([
        summaryOf(db, userId, at, timeZone),
        db.select(cardColumns).from(reviewCard).where(dueNow(userId, at)),
      ]);
      const cards = toExercises([...due].sort(servingOrder)).slice(0, ROUND_SIZE);
      return { summary, cards };
    },

    /**
     * A review day's warm-up: up to WEAKEST_LIMIT of the chapter's cards the learner finds hardest
     * (most wrong answers and lapses), due or not. Empty until they have missed one.
     */
    async hardest(userId: string, chapterId: string): Promise<HardestCards> {
      if (!course.some((chapter) => chapter.id === chapterId)) throw badRequest(`There is no chapter "${chapterId}".`);
      const [cards, wrongs] = await Promise.all([
        db
          .select(cardColumns)
          .from(reviewCard)
          .where(and(eq(reviewCard.userId, userId), eq(reviewCard.chapterId, chapterId))),
        wrongReviews(db, userId, chapterId),
      ]);
      const byCard = countBy(wrongs, cardId);
      const weakest = weakness(cards, byCard, cardId).slice(0, WEAKEST_LIMIT);
      return { cards: toExercises(weakest.map(({ row }) => row)) };
    },

    /**
     * Grades and logs one review, then rebuilds the card from its log. Refused before anything is
     * written: a card that is not of the course (400), an answer that does not fit it (400), a time
     * in the future or over a week old (400), a card the learner has not met (409 NOT_MET), a
     * clientId already sent for another card (409). A resend logs nothing and answers as the first.
     */
    async answer(userId: string, input: AnswerInput): Promise<ReviewAnswerResponse> {
      const at = now();
      const key = parseCardId(input.cardId);
      const phrase = key ? phraseOf(key) : undefined;
      if (!key || !phrase) throw badRequest(`"${input.cardId}" is not a review card of the course.`);
      const item = reviewItem(phrase, key.skill, phrases);
      const issues = checkGiven(item, input.given);
      if (issues.length > 0) throw badRequest("This answer does not fit the card.", issues);
      const reviewedAt = input.reviewedAt ? new Date(input.reviewedAt) : at;
      if (reviewedAt.getTime() > at.getTime() + CLOCK_SKEW_MS) throw badRequest("reviewedAt cannot be in the future.");
      if (reviewedAt.getTime() < at.getTime() - LATE_REVIEW_MS) {
        throw badRequest("This review is over a week old and can no longer be recorded.");
      }
      const ofCard = (table: typeof reviewCard | typeof reviewLog) => cardWhere(table, userId, key);

      const { graded, rating, nextDue } = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${REVIEW_LOCK_CLASS}::int, hashtext(${userId}))`);
        const [stored] = await tx
          .select()
          .from(reviewLog)
          .where(and(eq(reviewLog.userId, userId), eq(reviewLog.clientId, input.clientId)));
        let [card] = await tx.select().from(reviewCard).where(ofCard(reviewCard));
        if (!card && !stored) {
          // The day may have been met since the deck was last read (or never read: a review sent
          // straight after the phrase cards were opened). Met by the time of the review at the latest.
          await syncDeck(tx, userId, new Date(Math.min(at.getTime(), reviewedAt.getTime())));
          [card] = await tx.select().from(reviewCard).where(ofCard(reviewCard));
        }
        if (stored) {
          if (cardId(stored) !== cardId(key)) {
            throw new HttpError(
              409,
              "CLIENT_ID_REUSED",
              "This clientId was already sent with a review of another card. Make a new one for each review.",
            );
          }
          const replayed = grade(item, stored.given);
          return {
            graded: { grade: stored.grade, correct: replayed.correct },
            rating: stored.rating,
            nextDue: card?.due ?? at,
          };
        }
        if (!card)
          throw new HttpError(409, "NOT_MET", "This phrase is not in your review yet: meet it in its day first.");
        if (reviewedAt.getTime() < card.metAt.getTime()) {
          throw badRequest("reviewedAt is before the phrase was met.");
        }
        const result = grade(item, input.given);
        const rated = ratingFor({
          grade: result.grade,
          hinted: input.hinted,
          durationMs: input.durationMs,
          easy: input.easy,
        });
        const timeZone = input.timeZone ?? (await accountSettings(tx, userId)).timeZone;
        await tx.insert(reviewLog).values({
          userId,
          clientId: input.clientId,
          ...key,
          given: input.given,
          grade: result.grade,
          rating: rated,
          hinted: input.hinted,
          durationMs: input.durationMs,
          reviewedAt,
          timeZone,
          localDate: localDate(reviewedAt, timeZone),
        });
        const events = await tx
          .select({ clientId: reviewLog.clientId, rating: reviewLog.rating, reviewedAt: reviewLog.reviewedAt })
          .from(reviewLog)
          .where(ofCard(reviewLog));
        // The log's ratings were made by ratingFor, so each is one of FSRS's grades.
        const rebuilt: ReviewCard = rebuildCard(card.metAt, events);
        await tx
          .update(reviewCard)
          .set({
            state: rebuilt,
            due: rebuilt.due,
            reps: rebuilt.reps,
            lapses: rebuilt.lapses,
            lastReviewedAt: rebuilt.last_review ?? reviewedAt,
            // A review answered before the tutor pinned the phrase (sent late) leaves the pin.
            pinnedAt: sql`case when ${reviewCard.pinnedAt} <= ${reviewedAt} then null else ${reviewCard.pinnedAt} end`,
            pinnedBy: sql`case when ${reviewCard.pinnedAt} <= ${reviewedAt} then null else ${reviewCard.pinnedBy} end`,
          })
          .where(ofCard(reviewCard));
        return { graded: result, rating: rated, nextDue: rebuilt.due };
      });
      const summary = await summaryOf(db, userId, at, input.timeZone);
      return answerResponse(phrase, graded, rating, nextDue, summary);
    },

    /** For staff: the learner's weakest phrases, due count, streak and last activity. */
    async struggles(learnerId: string): Promise<StruggleReport> {
      await requireAccount(db, learnerId);
      const at = now();
      await syncDeck(db, learnerId, at);
      const [summary, cards, wrongs, lastAt] = await Promise.all([
        summaryOf(db, learnerId, at),
        db.select(cardColumns).from(reviewCard).where(eq(reviewCard.userId, learnerId)),
        wrongReviews(db, learnerId),
        lastActivity(db, learnerId),
      ]);
      const perPhrase = new Map<string, { key: string; lapses: number; pinned: boolean; row: CardRow }>();
      for (const card of cards) {
        const key = phraseKey(card.chapterId, card.dayId, card.phraseId);
        const entry = perPhrase.get(key) ?? { key, lapses: 0, pinned: false, row: card };
        entry.lapses += card.lapses;
        entry.pinned ||= card.pinnedAt !== null;
        perPhrase.set(key, entry);
      }
      const wrongByPhrase = countBy(wrongs, (row) => phraseKey(row.chapterId, row.dayId, row.phraseId));
      const weakest: WeakPhrase[] = weakness([...perPhrase.values()], wrongByPhrase, (entry) => entry.key)
        .flatMap(({ row: entry, wrong }) => {
          const phrase = phraseByKey.get(entry.key);
          if (!phrase) return [];
          const given = new Set<string>();
          for (const row of wrongs) {
            if (phraseKey(row.chapterId, row.dayId, row.phraseId) !== entry.key || given.size === 3) continue;
            given.add(givenText(reviewItem(phrase, row.skill, phrases), row.given));
          }
          return [
            {
              chapterId: phrase.chapterId,
              dayId: phrase.dayId,
              phraseId: phrase.id,
              dayNumber: phrase.dayNumber,
              malay: phrase.malay,
              english: phrase.english,
              lapses: entry.lapses,
              wrong,
              wrongAnswers: [...given],
              pinned: entry.pinned,
            },
          ];
        })
        .slice(0, WEAKEST_LIMIT);
      return {
        weakest,
        due: summary.due,
        deckSize: summary.deckSize,
        streak: summary.streak,
        lastActivityAt: lastAt ? lastAt.toISOString() : null,
      };
    },

    /**
     * A tutor pins a phrase into the learner's review: each of its cards is due at once, marked
     * "from your tutor", until the learner next reviews it. A phrase not met yet gets its cards now.
     */
    async pin(tutorId: string, learnerId: string, target: PinTarget) {
      const phrase = phraseOf(target);
      if (!phrase) {
        throw badRequest(`Day "${target.dayId}" of "${target.chapterId}" has no phrase "${target.phraseId}".`);
      }
      await requireAccount(db, learnerId);
      const at = now();
      await unlessUserVanished(() =>
        db
          .insert(reviewCard)
          .values(newCards(learnerId, phrase, at).map((card) => ({ ...card, pinnedAt: at, pinnedBy: tutorId })))
          .onConflictDoUpdate({
            target: [reviewCard.userId, reviewCard.chapterId, reviewCard.dayId, reviewCard.phraseId, reviewCard.skill],
            set: { pinnedAt: at, pinnedBy: tutorId },
          }),
      );
      return { pinned: { chapterId: phrase.chapterId, dayId: phrase.dayId, phraseId: phrase.id, malay: phrase.malay } };
    },

    /** Whether the day has this phrase: a feedback note's pin is checked before the note is stored. */
    hasPhrase: (target: PinTarget) => phraseOf(target) !== undefined,

    /** The unsubscribe link of a reminder: turns the learner's email notifications off. */
    async unsubscribe(secret: string, token: string): Promise<void> {
      const userId = userOfUnsubscribeToken(secret, token);
      if (!userId) throw badRequest("This unsubscribe link is not valid.");
      const updated = await db
        .update(user)
        .set({ emailNotifications: false })
        .where(eq(user.id, userId))
        .returning({ id: user.id });
      if (updated.length === 0) throw badRequest("This unsubscribe link is not valid.");
    },

    /** The learner's review log and cards, for Export My Data. */
    async exportFor(userId: string) {
      const [log, cards, goalChanges] = await Promise.all([
        db
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
          .orderBy(asc(reviewLog.reviewedAt), asc(reviewLog.clientId)),
        db
          .select({ ...cardColumns, metAt: reviewCard.metAt, lastReviewedAt: reviewCard.lastReviewedAt })
          .from(reviewCard)
          .where(eq(reviewCard.userId, userId))
          .orderBy(asc(reviewCard.chapterId), asc(reviewCard.dayId), asc(reviewCard.phraseId), asc(reviewCard.skill)),
        db
          .select({
            localDate: dailyGoalChange.localDate,
            unit: dailyGoalChange.unit,
            amount: dailyGoalChange.amount,
            previousUnit: dailyGoalChange.previousUnit,
            previousAmount: dailyGoalChange.previousAmount,
            changedAt: dailyGoalChange.changedAt,
          })
          .from(dailyGoalChange)
          .where(eq(dailyGoalChange.userId, userId))
          .orderBy(asc(dailyGoalChange.localDate)),
      ]);
      return { reviewLog: log, reviewCards: cards, dailyGoalChanges: goalChanges };
    },

    /** Used by the reminders: the deck synced and its due count, for one learner. */
    async dueCount(userId: string, at: Date): Promise<number> {
      await syncDeck(db, userId, at);
      const [row] = await db.select({ cards: count() }).from(reviewCard).where(dueNow(userId, at));
      return row?.cards ?? 0;
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
  };
}

export type ReviewService = ReturnType<typeof createReviewService>;

// ------------------------------------------------------------------ reminders

/** The hour (0-23) it is at `at` in a time zone. */
export function localHour(at: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" }).format(at));
}

/** The token of a learner's unsubscribe link: their id and an HMAC of it under AUTH_SECRET. */
export function unsubscribeToken(secret: string, userId: string): string {
  const mac = createHmac("sha256", secret).update(`unsubscribe:${userId}`).digest("base64url");
  return `${Buffer.from(userId).toString("base64url")}.${mac}`;
}

/** The learner an unsubscribe token names, or null when it was not made with this secret. */
export function userOfUnsubscribeToken(secret: string, token: string): string | null {
  const [encodedId, mac] = token.split(".");
  if (!encodedId || !mac) return null;
  const userId = Buffer.from(encodedId, "base64url").toString("utf8");
  const expected = Buffer.from(unsubscribeToken(secret, userId).split(".")[1]!);
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
}

/**
 * The daily review reminder (docs/decisions/039-review-deck.md): for every learner with email
 * notifications on, at their chosen hour where they are, when cards are due and they have not
 * reviewed that day. A (learner, date) row is written first and only its writer sends, so however
 * many instances run this at once, one email goes out per learner and day.
 */
export function createReminders(deps: {
  db: Database;
  review: ReviewService;
  mailer: Mailer;
  publicUrl: string;
  secret: string;
  logger: Logger;
  now?: () => Date;
}) {
  const { db, review, mailer, publicUrl, secret, logger, now = () => new Date() } = deps;

  async function sendDue(): Promise<number> {
    const at = now();
    const candidates = await db
      .select({
        id: user.id,
        email: user.email,
        firstName: user.firstName,
        timeZone: user.timeZone,
        reminderHour: user.reminderHour,
      })
      .from(user)
      .where(and(eq(user.emailNotifications, true), eq(user.emailVerified, true)));
    let sent = 0;
    for (const learner of candidates) {
      if (localHour(at, learner.timeZone) !== learner.reminderHour) continue;
      const today = localDate(at, learner.timeZone);
      if (await review.reviewedOn(learner.id, today)) continue;
      const due = await review.dueCount(learner.id, at);
      if (due === 0) continue;
      const reviewUrl = new URL("/review", publicUrl).toString();
      const unsubscribeUrl = new URL(
        `/unsubscribe?token=${unsubscribeToken(secret, learner.id)}`,
        publicUrl,
      ).toString();
      const greeting = learner.firstName ? `Hi ${learner.firstName},` : "Hi,";
      // The day's claim and the email commit together: a process that dies between them leaves
      // neither, and the next run (on any instance) sends the reminder.
      const claimed = await db.transaction(async (tx) => {
        const [claim] = await tx
          .insert(reviewReminder)
          .values({ userId: learner.id, localDate: today })
          .onConflictDoNothing()
          .returning({ userId: reviewReminder.userId });
        if (!claim) return false;
        await mailer.send(
          {
            to: learner.email,
            // Cards, as the body says: three skills of two phrases are six cards, not six phrases.
            subject: `${due} ${due === 1 ? "card is" : "cards are"} ready to review`,
            text: [
              greeting,
              "",
              `${due} review ${due === 1 ? "card is" : "cards are"} due today. A few minutes now keeps Alex's Malay, and yours, fresh.`,
              "",
              `Review now: ${reviewUrl}`,
              "",
              `You get this email once a day when reviews are waiting. Stop these reminders: ${unsubscribeUrl}`,
            ].join("\n"),
            link: reviewUrl,
          },
          tx,
        );
        return true;
      });
      if (!claimed) continue;
      sent += 1;
    }
    if (sent > 0) logger.info({ sent }, "review reminders written to the outbox");
    return sent;
  }

  return {
    sendDue,
    /** Runs sendDue every `intervalMs` until stopped; an error is logged and the next run tries again. */
    start(intervalMs = 5 * 60_000) {
      let running: Promise<unknown> | null = null;
      const tick = () => {
        if (running) return;
        running = sendDue()
          .catch((error: unknown) => logger.error({ err: error }, "review reminders failed"))
          .finally(() => {
            running = null;
          });
      };
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await running;
      };
    },
  };
}

export type Reminders = ReturnType<typeof createReminders>;
