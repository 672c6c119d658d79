import { and, eq, sql } from "drizzle-orm";
import type { Database, Transaction } from "#server/db/client";
import { sessionRating } from "./calls.tables";

/** A session held, as its record and the learner's rating stand (decision 083). */
export interface HeldRow {
  bookingId: string;
  chapterId: string;
  dayId: string;
  endedAt: Date;
  notes: string;
  feedbackId: string | null;
  rated: number;
  average: number | null;
  stars: number | null;
  comment: string | null;
  givenAt: Date | null;
}

/** A learner's rating of a session, with the session's day and time, for a tutor's ratings and the export. */
export interface GivenRatingRow {
  bookingId: string;
  tutorId: string | null;
  chapterId: string;
  dayId: string;
  startsAt: Date;
  stars: number;
  comment: string | null;
  givenAt: Date;
  updatedAt: Date;
}

const GIVEN_COLUMNS = `r.booking_id as "bookingId", b.tutor_id as "tutorId", b.chapter_id as "chapterId",
  b.day_id as "dayId", b.starts_at as "startsAt", r.stars, r.comment, r.given_at as "givenAt",
  r.updated_at as "updatedAt"`;

/**
 * The sessions held (call_record's end) and the learners' ratings of them (session_rating): read for
 * the bookings' views, the tutors' counts and ratings, and the account's export and deletion.
 */
export function createSessionRatingsRepository(db: Database) {
  return {
    /** The sessions held among these bookings, with the tutor's line ratings summed up and the learner's rating. */
    async heldOf(bookingIds: readonly string[]): Promise<HeldRow[]> {
      if (bookingIds.length === 0) return [];
      const { rows } = await db.$client.query<HeldRow>(
        `select c.booking_id as "bookingId", b.chapter_id as "chapterId", b.day_id as "dayId",
            c.ended_at as "endedAt", c.notes, c.feedback_id as "feedbackId",
            (select count(*)::int from call_rating cr where cr.booking_id = c.booking_id) as rated,
            (select avg(cr.rating)::float8 from call_rating cr where cr.booking_id = c.booking_id) as average,
            s.stars, s.comment, s.given_at as "givenAt"
          from call_record c join booking b on b.id = c.booking_id
            left join session_rating s on s.booking_id = c.booking_id
          where c.booking_id = any($1::uuid[]) and c.ended_at is not null`,
        [bookingIds],
      );
      return rows;
    },

    /** The days these learners have held a session for. */
    async daysHeldBy(learnerIds: readonly string[]) {
      if (learnerIds.length === 0) return [];
      const { rows } = await db.$client.query<{ learnerId: string; chapterId: string; dayId: string }>(
        `select distinct b.learner_id as "learnerId", b.chapter_id as "chapterId", b.day_id as "dayId"
          from booking b join call_record c on c.booking_id = b.id
          where b.learner_id = any($1::text[]) and c.ended_at is not null`,
        [learnerIds],
      );
      return rows;
    },

    /** How many sessions each of these tutors has held. */
    async heldCounts(tutorIds: readonly string[]): Promise<Map<string, number>> {
      if (tutorIds.length === 0) return new Map();
      const { rows } = await db.$client.query<{ tutorId: string; held: number }>(
        `select b.tutor_id as "tutorId", count(*)::int as held
          from booking b join call_record c on c.booking_id = b.id
          where b.tutor_id = any($1::text[]) and c.ended_at is not null
          group by b.tutor_id`,
        [tutorIds],
      );
      return new Map(rows.map((row) => [row.tutorId, row.held]));
    },

    /**
     * The learner's rating of the session, given or changed: a first rating is written; one already
     * given is changed only when it was first given after `editableFrom`. Answers the row, or
     * undefined when the rating may no longer be changed.
     */
    async give(
      rating: { bookingId: string; learnerId: string; stars: number; comment: string | null },
      at: Date,
      editableFrom: Date,
    ) {
      const [row] = await db
        .insert(sessionRating)
        .values({ ...rating, givenAt: at, updatedAt: at })
        .onConflictDoUpdate({
          target: sessionRating.bookingId,
          set: { stars: rating.stars, comment: rating.comment, updatedAt: at },
          setWhere: and(
            sql`${sessionRating.givenAt} > ${editableFrom.toISOString()}`,
            eq(sessionRating.learnerId, rating.learnerId),
          ),
        })
        .returning();
      return row;
    },

    /** How many ratings each of these tutors (every tutor rated, when null) has, and their average. */
    async summariesOf(
      tutorIds: readonly string[] | null,
    ): Promise<{ tutorId: string; count: number; average: number }[]> {
      const { rows } = await db.$client.query<{ tutorId: string; count: number; average: number }>(
        `select b.tutor_id as "tutorId", count(*)::int as count, avg(r.stars)::float8 as average
          from session_rating r join booking b on b.id = r.booking_id
          where b.tutor_id is not null and ($1::text[] is null or b.tutor_id = any($1::text[]))
          group by b.tutor_id`,
        [tutorIds],
      );
      return rows;
    },

    /** The newest `perTutor` ratings with a comment of each of these tutors (every tutor, when null), newest first. */
    async recentCommentsOf(tutorIds: readonly string[] | null, perTutor: number): Promise<GivenRatingRow[]> {
      const { rows } = await db.$client.query<GivenRatingRow>(
        `select * from (
            select ${GIVEN_COLUMNS},
              row_number() over (partition by b.tutor_id order by r.given_at desc, r.booking_id) as n
            from session_rating r join booking b on b.id = r.booking_id
            where b.tutor_id is not null and r.comment is not null
              and ($1::text[] is null or b.tutor_id = any($1::text[]))
          ) recent
          where n <= $2 order by "givenAt" desc, "bookingId"`,
        [tutorIds, perTutor],
      );
      return rows;
    },

    /** The ratings a learner gave, oldest first: their part of Export My Data. */
    async givenBy(learnerId: string): Promise<GivenRatingRow[]> {
      const { rows } = await db.$client.query<GivenRatingRow>(
        `select ${GIVEN_COLUMNS} from session_rating r join booking b on b.id = r.booking_id
          where r.learner_id = $1 order by r.given_at, r.booking_id`,
        [learnerId],
      );
      return rows;
    },

    /** Deletes the ratings a learner gave, in their account's deletion: what the leaving user wrote goes. */
    async forgetGivenBy(tx: Transaction, learnerId: string): Promise<void> {
      await tx.delete(sessionRating).where(eq(sessionRating.learnerId, learnerId));
    },
  };
}

export type SessionRatingsRepository = ReturnType<typeof createSessionRatingsRepository>;
