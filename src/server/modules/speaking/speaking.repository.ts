import { and, asc, desc, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { SelfRating } from "#course/speaking";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { LOCK_CLASSES } from "#server/db/locks";
import { linePractice, notice, quietDay, recording, speakingSubmission } from "./speaking.tables";

export type TakeRow = typeof recording.$inferSelect;
export type SubmissionRow = typeof speakingSubmission.$inferSelect;
export type LinePracticeRow = typeof linePractice.$inferSelect;

interface DayOf {
  userId: string;
  chapterId: string;
  dayId: string;
}

/** The rows of one learner's day, in any of the tables keyed by user, chapter and day. */
const ofDay = (table: { userId: PgColumn; chapterId: PgColumn; dayId: PgColumn }, day: DayOf) =>
  and(eq(table.userId, day.userId), eq(table.chapterId, day.chapterId), eq(table.dayId, day.dayId));

/** The speaking module's tables: recording (takes), speaking_submission, line_practice, quiet_day, notice. */
export function createSpeakingRepository(db: Database) {
  return {
    ...takes(db),
    ...dayPractice(db),
    ...submissions(db),
    ...tutorReviews(),
    ...notices(db),
    ...exportRows(db),
  };
}

/** A learner's takes: saving one in turn, the quota's prunes, the orphan sweep, one take and its self-rating. */
function takes(db: Database) {
  return {
    /** Makes this learner's saves, prunes and sends take turns until the transaction ends. */
    async lockUser(tx: Transaction, userId: string): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASSES.takes}::int, hashtext(${userId}))`);
    },

    /**
     * Removes the line's take not yet sent, if any, and answers its file's key. In the database the
     * file goes with it (migration 0009's trigger); a bucket's object is removed after the commit.
     */
    async removeUnsent(tx: Transaction, day: DayOf, lineId: string): Promise<string[]> {
      const removed = await tx
        .delete(recording)
        .where(and(ofDay(recording, day), eq(recording.lineId, lineId), isNull(recording.submissionId)))
        .returning({ fileKey: recording.fileKey });
      return removed.map((row) => row.fileKey);
    },

    async insert(tx: Transaction, row: typeof recording.$inferInsert): Promise<TakeRow> {
      const [stored] = await tx.insert(recording).values(row).returning();
      return stored!;
    },

    /** The bytes the learner's takes hold in all. */
    async usedBytes(tx: Transaction, userId: string): Promise<number> {
      const [row] = await tx
        .select({ used: sql<string>`coalesce(sum(${recording.byteSize}), 0)` })
        .from(recording)
        .where(eq(recording.userId, userId));
      return Number(row!.used);
    },

    /** The learner's takes not sent to a tutor, oldest first, but `keep`. */
    unsentOldestFirst(tx: Transaction, userId: string, keep: string) {
      return tx
        .select({ id: recording.id, byteSize: recording.byteSize })
        .from(recording)
        .where(and(eq(recording.userId, userId), isNull(recording.submissionId), ne(recording.id, keep)))
        .orderBy(asc(recording.createdAt), asc(recording.id));
    },

    /** Removes these takes and answers their files' keys (as removeUnsent). */
    async removeTakes(tx: Transaction, ids: string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const removed = await tx
        .delete(recording)
        .where(inArray(recording.id, ids))
        .returning({ fileKey: recording.fileKey });
      return removed.map((row) => row.fileKey);
    },

    /** Which of these file keys a take still holds (the orphan sweep's question). */
    async heldFileKeys(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const rows = await db
        .select({ fileKey: recording.fileKey })
        .from(recording)
        .where(inArray(recording.fileKey, keys));
      return new Set(rows.map((row) => row.fileKey));
    },

    async takeById(takeId: string, q: Queryable = db): Promise<TakeRow | undefined> {
      const [row] = await q.select().from(recording).where(eq(recording.id, takeId));
      return row;
    },

    async setSelfRating(userId: string, takeId: string, rating: SelfRating): Promise<TakeRow | undefined> {
      const [row] = await db
        .update(recording)
        .set({ selfRating: rating })
        .where(and(eq(recording.id, takeId), eq(recording.userId, userId)))
        .returning();
      return row;
    },
  };
}

/** A learner's day: its takes, the lines marked listened to or said aloud, the "I can't speak now" mode. */
function dayPractice(db: Database) {
  return {
    /** Every take of the learner's day, newest first. */
    takesOfDay(day: DayOf, q: Queryable = db): Promise<TakeRow[]> {
      return q
        .select()
        .from(recording)
        .where(ofDay(recording, day))
        .orderBy(desc(recording.createdAt), desc(recording.id));
    },

    linesOfDay(day: DayOf, q: Queryable = db): Promise<LinePracticeRow[]> {
      return q.select().from(linePractice).where(ofDay(linePractice, day));
    },

    /** Adds marks to a line (a mark once made stays, with its first time) and answers the line's row. */
    async mark(
      day: DayOf,
      lineId: string,
      marks: { listened: boolean; saidAloud: boolean },
      at: Date,
      q: Queryable = db,
    ): Promise<LinePracticeRow> {
      const [row] = await q
        .insert(linePractice)
        .values({
          ...day,
          lineId,
          listenedAt: marks.listened ? at : null,
          saidAloudAt: marks.saidAloud ? at : null,
        })
        .onConflictDoUpdate({
          target: [linePractice.userId, linePractice.chapterId, linePractice.dayId, linePractice.lineId],
          set: {
            listenedAt: sql`coalesce(${linePractice.listenedAt}, excluded.listened_at)`,
            saidAloudAt: sql`coalesce(${linePractice.saidAloudAt}, excluded.said_aloud_at)`,
          },
        })
        .returning();
      return row!;
    },

    async isQuiet(day: DayOf, q: Queryable = db): Promise<boolean> {
      const [row] = await q.select({ since: quietDay.since }).from(quietDay).where(ofDay(quietDay, day));
      return row !== undefined;
    },

    async setQuiet(day: DayOf, quiet: boolean): Promise<void> {
      if (quiet) await db.insert(quietDay).values(day).onConflictDoNothing();
      else await db.delete(quietDay).where(ofDay(quietDay, day));
    },
  };
}

/** What a learner sends to the tutors' queue, and the queue a tutor reads. */
function submissions(db: Database) {
  return {
    /** The learner's submissions of a day, newest first. */
    submissionsOfDay(day: DayOf, q: Queryable = db): Promise<SubmissionRow[]> {
      return q
        .select()
        .from(speakingSubmission)
        .where(ofDay(speakingSubmission, day))
        .orderBy(desc(speakingSubmission.submittedAt), desc(speakingSubmission.id));
    },

    /** How many of the learner's submissions wait for a tutor. */
    async waitingCount(tx: Transaction, userId: string): Promise<number> {
      const [row] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(speakingSubmission)
        .where(and(eq(speakingSubmission.userId, userId), isNull(speakingSubmission.reviewedAt)));
      return row!.count;
    },

    /** A submission holding the learner's takes `takeIds` (each moved out of the unsent ones). */
    async submit(
      tx: Transaction,
      day: DayOf,
      taskId: string | null,
      takeIds: string[],
    ): Promise<{ submission: SubmissionRow; takes: TakeRow[] }> {
      const [submission] = await tx
        .insert(speakingSubmission)
        .values({ ...day, taskId })
        .returning();
      const takes = await tx
        .update(recording)
        .set({ submissionId: submission!.id })
        .where(and(inArray(recording.id, takeIds), eq(recording.userId, day.userId), isNull(recording.submissionId)))
        .returning();
      return { submission: submission!, takes };
    },

    /** Submissions waiting for a tutor, oldest first, with how many takes each holds. */
    waiting(limit: number) {
      return db
        .select({
          submission: speakingSubmission,
          takes: sql<number>`(select count(*)::int from recording r where r.submission_id = speaking_submission.id)`,
        })
        .from(speakingSubmission)
        .where(isNull(speakingSubmission.reviewedAt))
        .orderBy(asc(speakingSubmission.submittedAt), asc(speakingSubmission.id))
        .limit(limit);
    },

    async submissionById(submissionId: string, q: Queryable = db): Promise<SubmissionRow | undefined> {
      const [row] = await q.select().from(speakingSubmission).where(eq(speakingSubmission.id, submissionId));
      return row;
    },

    /** A submission's takes, in the order they were recorded. */
    takesOfSubmission(submissionId: string, q: Queryable = db): Promise<TakeRow[]> {
      return q
        .select()
        .from(recording)
        .where(eq(recording.submissionId, submissionId))
        .orderBy(asc(recording.createdAt), asc(recording.id));
    },
  };
}

/** A tutor's review of a submission: marked once, each take rated. */
function tutorReviews() {
  return {
    /**
     * Marks the submission reviewed by `tutorId`, once: answers false when it already was (another
     * tutor's review came first), so the caller's transaction rolls back.
     */
    async markReviewed(tx: Transaction, submissionId: string, tutorId: string, at: Date): Promise<boolean> {
      const rows = await tx
        .update(speakingSubmission)
        .set({ reviewedAt: at, reviewedBy: tutorId })
        .where(and(eq(speakingSubmission.id, submissionId), isNull(speakingSubmission.reviewedAt)))
        .returning({ id: speakingSubmission.id });
      return rows.length === 1;
    },

    async rateTake(tx: Transaction, takeId: string, rating: number, comment: string | null): Promise<void> {
      await tx.update(recording).set({ tutorRating: rating, tutorComment: comment }).where(eq(recording.id, takeId));
    },
  };
}

/** The notices a user is given, and which of them they have read. */
function notices(db: Database) {
  return {
    async addNotice(tx: Transaction, row: typeof notice.$inferInsert): Promise<void> {
      await tx.insert(notice).values(row);
    },

    /** The user's newest notices, with the day each is about. */
    noticesOf(userId: string, limit: number) {
      return db
        .select({
          id: notice.id,
          kind: notice.kind,
          createdAt: notice.createdAt,
          readAt: notice.readAt,
          chapterId: sql<string>`coalesce(${notice.chapterId}, ${speakingSubmission.chapterId})`,
          dayId: sql<string>`coalesce(${notice.dayId}, ${speakingSubmission.dayId})`,
          taskId: speakingSubmission.taskId,
        })
        .from(notice)
        .leftJoin(speakingSubmission, eq(speakingSubmission.id, notice.submissionId))
        .where(eq(notice.userId, userId))
        .orderBy(desc(notice.createdAt), desc(notice.id))
        .limit(limit);
    },

    async unreadCount(userId: string): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(notice)
        .where(and(eq(notice.userId, userId), isNull(notice.readAt)));
      return row!.count;
    },

    async markNoticesRead(userId: string, at: Date): Promise<void> {
      await db
        .update(notice)
        .set({ readAt: at })
        .where(and(eq(notice.userId, userId), isNull(notice.readAt)));
    },
  };
}

/** Every row of the learner's, for Export My Data. */
function exportRows(db: Database) {
  return {
    /** Every take of the learner's, oldest first, for Export My Data. */
    allTakesOf(userId: string): Promise<TakeRow[]> {
      return db
        .select()
        .from(recording)
        .where(eq(recording.userId, userId))
        .orderBy(asc(recording.createdAt), asc(recording.id));
    },

    allSubmissionsOf(userId: string): Promise<SubmissionRow[]> {
      return db
        .select()
        .from(speakingSubmission)
        .where(eq(speakingSubmission.userId, userId))
        .orderBy(asc(speakingSubmission.submittedAt), asc(speakingSubmission.id));
    },

    /** The days the user turned "I can't speak now" on for, for Export My Data. */
    allQuietDaysOf(userId: string) {
      return db
        .select({ chapterId: quietDay.chapterId, dayId: quietDay.dayId, since: quietDay.since })
        .from(quietDay)
        .where(eq(quietDay.userId, userId))
        .orderBy(asc(quietDay.since));
    },

    /** Every notice the user was given, read or not, oldest first, for Export My Data. */
    allNoticesOf(userId: string) {
      return db
        .select({
          kind: notice.kind,
          chapterId: sql<string | null>`coalesce(${notice.chapterId}, ${speakingSubmission.chapterId})`,
          dayId: sql<string | null>`coalesce(${notice.dayId}, ${speakingSubmission.dayId})`,
          createdAt: notice.createdAt,
          readAt: notice.readAt,
        })
        .from(notice)
        .leftJoin(speakingSubmission, eq(speakingSubmission.id, notice.submissionId))
        .where(eq(notice.userId, userId))
        .orderBy(asc(notice.createdAt), asc(notice.id));
    },

    allLinesOf(userId: string): Promise<LinePracticeRow[]> {
      return db
        .select()
        .from(linePractice)
        .where(eq(linePractice.userId, userId))
        .orderBy(asc(linePractice.chapterId), asc(linePractice.dayId), asc(linePractice.lineId));
    },
  };
}

export type SpeakingRepository = ReturnType<typeof createSpeakingRepository>;
