import { and, eq, sql } from "drizzle-orm";
import type { CallSignalKind } from "#course/calls";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { callRating, callRecord } from "#server/db/schema";
import type { ChatMessage } from "./calls.contract";

/** The channel every instance listens on for its rooms' signals (src/server/db/notifications.ts). */
export const CALL_ROOM_CHANNEL = "call_room";

/** A signal, and a notification naming it (sent when the statement commits). */
const SEND = `
  with signal as (
    insert into call_signal (booking_id, sender_id, connection_id, kind, body)
    values ($1, $2, $3, $4, $5::jsonb)
    returning id
  )
  select pg_notify('${CALL_ROOM_CHANNEL}', json_build_object('b', $1::text, 'i', (select id from signal))::text)`;

/** A chat message kept, and sent as a signal, in one statement. */
const CHAT = `
  with message as (
    insert into call_message (booking_id, sender_id, text) values ($1, $2, $4)
    returning id, sender_id, text, created_at
  ),
  signal as (
    insert into call_signal (booking_id, sender_id, connection_id, kind, body)
    select $1, $2, $3, 'chat', json_build_object('id', id, 'from', sender_id, 'text', text, 'at', created_at)
    from message
    returning id
  )
  select message.id, message.sender_id, message.text, message.created_at,
    pg_notify('${CALL_ROOM_CHANNEL}', json_build_object('b', $1::text, 'i', (select id from signal))::text)
  from message`;

/** A signal as a side's instance reads it. */
export interface SignalRow {
  bookingId: string;
  senderId: string;
  connectionId: string;
  kind: CallSignalKind;
  body: unknown;
}

/** A session's record as stored: the tutor's notes and its end. */
export type RecordRow = typeof callRecord.$inferSelect;
/** A phrase's rating in a session. */
export type RatingRow = Pick<typeof callRating.$inferSelect, "taskId" | "lineId" | "rating">;

/**
 * The calls module's tables: call_signal (what the sides send each other), call_message (the chat),
 * and a session's record: call_rating (the tutor's ratings) and call_record (notes, the end).
 */
export function createCallsRepository(db: Database) {
  return {
    async send(signal: SignalRow): Promise<void> {
      await db.$client.query({
        name: "call_send",
        text: SEND,
        values: [signal.bookingId, signal.senderId, signal.connectionId, signal.kind, JSON.stringify(signal.body)],
      });
    },

    async chat(from: Omit<SignalRow, "kind" | "body">, text: string): Promise<ChatMessage> {
      const { rows } = await db.$client.query<{ id: string; sender_id: string; text: string; created_at: Date }>({
        name: "call_chat",
        text: CHAT,
        values: [from.bookingId, from.senderId, from.connectionId, text],
      });
      const row = rows[0]!;
      return { id: row.id, from: row.sender_id, text: row.text, at: row.created_at.toISOString() };
    },

    async signal(id: number): Promise<SignalRow | undefined> {
      const { rows } = await db.$client.query<SignalRow>({
        name: "call_signal_by_id",
        text: `select booking_id as "bookingId", sender_id as "senderId", connection_id as "connectionId", kind, body
          from call_signal where id = $1`,
        values: [id],
      });
      return rows[0];
    },

    async chatOf(bookingId: string): Promise<ChatMessage[]> {
      const { rows } = await db.$client.query<{ id: string; sender_id: string; text: string; created_at: Date }>(
        "select id, sender_id, text, created_at from call_message where booking_id = $1 order by created_at, id",
        [bookingId],
      );
      return rows.map((row) => ({ id: row.id, from: row.sender_id, text: row.text, at: row.created_at.toISOString() }));
    },

    /** The chat messages a user sent, for Export My Data. */
    async exportFor(userId: string) {
      const { rows } = await db.$client.query<{ bookingId: string; text: string; at: Date }>(
        `select booking_id as "bookingId", text, created_at as at from call_message
          where sender_id = $1 order by created_at, id`,
        [userId],
      );
      return rows;
    },

    /**
     * The session records of the user's bookings, for Export My Data: as tutor, the ratings and
     * notes they wrote; as learner, those they were given, once the session ended (as the room shows
     * them). Oldest session first.
     */
    async recordsExportFor(userId: string) {
      const { rows } = await db.$client.query<{
        bookingId: string;
        role: "learner" | "tutor";
        notes: string | null;
        endedAt: Date | null;
        ratings: { taskId: string; lineId: string; rating: number; ratedAt: string }[];
      }>(
        `select b.id as "bookingId", case when b.learner_id = $1 then 'learner' else 'tutor' end as role,
            r.notes, r.ended_at as "endedAt",
            coalesce((select json_agg(json_build_object('taskId', cr.task_id, 'lineId', cr.line_id,
                'rating', cr.rating, 'ratedAt', cr.rated_at) order by cr.task_id, cr.line_id)
              from call_rating cr where cr.booking_id = b.id), '[]') as ratings
          from booking b left join call_record r on r.booking_id = b.id
          where (b.tutor_id = $1 or (b.learner_id = $1 and r.ended_at is not null))
            and (r.booking_id is not null or exists (select 1 from call_rating cr where cr.booking_id = b.id))
          order by b.starts_at, b.id`,
        [userId],
      );
      return rows;
    },

    async recordOf(bookingId: string, q: Queryable = db): Promise<RecordRow | undefined> {
      const [row] = await q.select().from(callRecord).where(eq(callRecord.bookingId, bookingId));
      return row;
    },

    ratingsOf(bookingId: string, q: Queryable = db): Promise<RatingRow[]> {
      return q
        .select({ taskId: callRating.taskId, lineId: callRating.lineId, rating: callRating.rating })
        .from(callRating)
        .where(eq(callRating.bookingId, bookingId));
    },

    /**
     * Takes the session's record row (made when missing) until the transaction ends, unless the
     * session has ended: a rating and the end take turns, so no rating lands after the end read them.
     * Answers whether the session is still open to ratings and notes.
     */
    async holdOpenRecord(tx: Transaction, bookingId: string): Promise<boolean> {
      const rows = await tx
        .insert(callRecord)
        .values({ bookingId })
        .onConflictDoUpdate({
          target: callRecord.bookingId,
          set: { bookingId: sql`excluded.booking_id` },
          setWhere: sql`${callRecord.endedAt} is null`,
        })
        .returning({ bookingId: callRecord.bookingId });
      return rows.length > 0;
    },

    /** Sets a phrase's rating, or clears it (null). */
    async rate(tx: Transaction, bookingId: string, target: { taskId: string; lineId: string }, rating: number | null) {
      const key = and(
        eq(callRating.bookingId, bookingId),
        eq(callRating.taskId, target.taskId),
        eq(callRating.lineId, target.lineId),
      );
      if (rating === null) {
        await tx.delete(callRating).where(key);
        return;
      }
      await tx
        .insert(callRating)
        .values({ bookingId, ...target, rating })
        .onConflictDoUpdate({
          target: [callRating.bookingId, callRating.taskId, callRating.lineId],
          set: { rating, ratedAt: sql`now()` },
        });
    },

    /** Saves the tutor's notes unless the session has ended; answers the record, or undefined when it had. */
    async saveNotes(bookingId: string, notes: string, at: Date): Promise<RecordRow | undefined> {
      const [row] = await db
        .insert(callRecord)
        .values({ bookingId, notes, notesSavedAt: at })
        .onConflictDoUpdate({
          target: callRecord.bookingId,
          set: { notes, notesSavedAt: at },
          setWhere: sql`${callRecord.endedAt} is null`,
        })
        .returning();
      return row;
    },

    /** Marks the session ended (its record held by holdOpenRecord in the same transaction). */
    async end(tx: Transaction, bookingId: string, by: string, at: Date): Promise<RecordRow> {
      const [row] = await tx
        .update(callRecord)
        .set({ endedAt: at, endedBy: by })
        .where(eq(callRecord.bookingId, bookingId))
        .returning();
      return row!;
    },

    async linkFeedback(tx: Transaction, bookingId: string, feedbackId: string): Promise<void> {
      await tx.update(callRecord).set({ feedbackId }).where(eq(callRecord.bookingId, bookingId));
    },

    /** Forgets signals older than `before`: each is read within moments of being sent. */
    async prune(before: Date): Promise<number> {
      const result = await db.$client.query("delete from call_signal where created_at < $1", [before]);
      return result.rowCount ?? 0;
    },
  };
}

export type CallsRepository = ReturnType<typeof createCallsRepository>;
