import { and, eq, sql } from "drizzle-orm";
import type { CallSignalKind } from "#course/calls";
import type { Database, Queryable, Transaction } from "#server/db/client";
import type { ChatMessage } from "./calls.contract";
import { callRating, callRecord } from "./calls.tables";

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

/**
 * What one user may send into one room (docs/decisions/061): counted on the stored rows in the
 * statement that stores the next, so the limits hold whatever the number of sockets, reconnects and
 * instances. A call's negotiation is some tens of messages and some KB; a chat line at most
 * CHAT_MAX_LENGTH characters.
 */
export interface RoomLimits {
  /** Offers, answers, candidates and chat lines in any `windowMs`. */
  messagesPerWindow: number;
  windowMs: number;
  /** Bytes of offers, answers and candidates kept (signals are pruned after an hour). */
  signalBytes: number;
  /** Bytes of chat kept with the booking. */
  chatBytes: number;
}

export const ROOM_LIMITS: RoomLimits = {
  messagesPerWindow: 200,
  windowMs: 10_000,
  signalBytes: 1_000_000,
  chatBytes: 100_000,
};

/**
 * Why a side's message was not stored: its session has ended (signed out, revoked, expired), its
 * user sent too many messages into the room lately, or too many bytes altogether.
 */
export type Refusal = "signed-out" | "too-many" | "too-much";

/** The sender's session still stands ($s), and how many messages they sent into the room lately ($w ms, at most $m). */
const standingAndRecent = (s: string, w: string) => `
  standing as (
    select exists (select 1 from session where id = ${s} and user_id = $2 and expires_at > now()) as signed_in
  ),
  sent as (
    select count(*) filter (where created_at > now() - ${w}::int * interval '1 millisecond') as recent,
      coalesce(sum(octet_length(body::text)) filter (where kind <> 'chat'), 0) as bytes
    from call_signal
    where booking_id = $1 and sender_id = $2 and kind in ('description', 'candidate', 'chat')
  )`;

/**
 * A side's signal (an offer, an answer, a candidate), stored and announced unless refused, in one
 * statement: $6 the sender's session, $7 the window in ms, $8 the messages it allows, $9 the bytes kept.
 */
const SIDE_SIGNAL = `
  with ${standingAndRecent("$6", "$7")},
  verdict as (
    select case
      when not standing.signed_in then 'signed-out'
      when sent.recent >= $8 then 'too-many'
      when sent.bytes + octet_length($5::jsonb::text) > $9 then 'too-much'
    end as refused
    from standing, sent
  ),
  signal as (
    insert into call_signal (booking_id, sender_id, connection_id, kind, body)
    select $1::uuid, $2, $3::uuid, $4, $5::jsonb from verdict where refused is null
    returning id
  )
  select verdict.refused,
    (select pg_notify('${CALL_ROOM_CHANNEL}', json_build_object('b', $1::text, 'i', signal.id)::text) from signal)
  from verdict`;

/**
 * A chat message kept, and sent as a signal, unless refused, in one statement: $5 the sender's
 * session, $6 the window in ms, $7 the messages it allows, $8 the bytes of chat kept.
 */
const CHAT = `
  with ${standingAndRecent("$5", "$6")},
  written as (
    select coalesce(sum(octet_length(text)), 0) as bytes from call_message where booking_id = $1 and sender_id = $2
  ),
  verdict as (
    select case
      when not standing.signed_in then 'signed-out'
      when sent.recent >= $7 then 'too-many'
      when written.bytes + octet_length($4::text) > $8 then 'too-much'
    end as refused
    from standing, sent, written
  ),
  message as (
    insert into call_message (booking_id, sender_id, text)
    select $1::uuid, $2, $4::text from verdict where refused is null
    returning id, sender_id, text, created_at
  ),
  signal as (
    insert into call_signal (booking_id, sender_id, connection_id, kind, body)
    select $1::uuid, $2, $3::uuid, 'chat', json_build_object('id', id, 'from', sender_id, 'text', text, 'at', created_at)
    from message
    returning id
  )
  select verdict.refused,
    (select pg_notify('${CALL_ROOM_CHANNEL}', json_build_object('b', $1::text, 'i', signal.id)::text) from signal)
  from verdict`;

/** A signal as a side's instance reads it. */
export interface SignalRow {
  bookingId: string;
  senderId: string;
  connectionId: string;
  kind: CallSignalKind;
  body: unknown;
}

/** A signal as stored: with its id, which its notification names. */
export interface StoredSignal extends SignalRow {
  id: number;
}

/** A session's record as stored: the tutor's notes and its end. */
export type RecordRow = typeof callRecord.$inferSelect;
/** A phrase's rating in a session. */
export type RatingRow = Pick<typeof callRating.$inferSelect, "taskId" | "lineId" | "rating">;

/**
 * The calls module's tables: call_signal (what the sides send each other), call_message (the chat),
 * and a session's record: call_rating (the tutor's ratings) and call_record (notes, the end).
 */
export function createCallsRepository(db: Database, limits: RoomLimits = ROOM_LIMITS) {
  return {
    ...relay(db),
    ...sidesMessages(db, limits),
    ...chatAndExports(db),
    ...sessionRecord(db),
  };
}

/** The signals relayed between a room's sides: sent, read back by id or since a moment, pruned. */
function relay(db: Database) {
  return {
    async send(signal: SignalRow): Promise<void> {
      await db.$client.query({
        name: "call_send",
        text: SEND,
        values: [signal.bookingId, signal.senderId, signal.connectionId, signal.kind, JSON.stringify(signal.body)],
      });
    },

    async signal(id: number): Promise<StoredSignal | undefined> {
      const { rows } = await db.$client.query<StoredSignal>({
        name: "call_signal_by_id",
        text: `select id::int as id, booking_id as "bookingId", sender_id as "senderId", connection_id as "connectionId",
          kind, body from call_signal where id = $1`,
        values: [id],
      });
      return rows[0];
    },

    /** A room's signals stored since `since`, in the order sent: what a listener that was away may have missed. */
    async signalsSince(bookingId: string, since: Date): Promise<StoredSignal[]> {
      const { rows } = await db.$client.query<StoredSignal>({
        name: "call_signals_since",
        text: `select id::int as id, booking_id as "bookingId", sender_id as "senderId", connection_id as "connectionId",
          kind, body from call_signal where booking_id = $1 and created_at >= $2 order by id`,
        values: [bookingId, since],
      });
      return rows;
    },

    /**
     * Forgets signals older than `before` (each is read within moments of being sent), but a `hello`
     * whose socket has not said `bye` only once older than `helloBefore`: it is how the room's
     * presence is read (`present`), for as long as a room can stay open.
     */
    async prune(before: Date, helloBefore: Date): Promise<number> {
      const result = await db.$client.query(
        `delete from call_signal s where s.created_at < $1 and (s.kind <> 'hello' or s.created_at < $2
          or exists (select 1 from call_signal bye where bye.connection_id = s.connection_id and bye.kind = 'bye'))`,
        [before, helloBefore],
      );
      return result.rowCount ?? 0;
    },

    /**
     * Who is in a booking's room now, on any instance: each user whose newest socket there said
     * `hello` and not yet `bye` (a newer socket of a user replaces the older, which may never say it).
     */
    async present(bookingId: string): Promise<string[]> {
      const { rows } = await db.$client.query<{ userId: string }>({
        name: "call_room_present",
        text: `select newest.sender_id as "userId" from (
            select distinct on (sender_id) sender_id, connection_id from call_signal
            where booking_id = $1 and kind = 'hello' order by sender_id, id desc
          ) newest
          where not exists (
            select 1 from call_signal bye
            where bye.booking_id = $1 and bye.connection_id = newest.connection_id and bye.kind = 'bye'
          )`,
        values: [bookingId],
      });
      return rows.map((row) => row.userId);
    },
  };
}

/** What a side sends itself (offers, answers, candidates, chat), stored unless refused by `limits`. */
function sidesMessages(db: Database, limits: RoomLimits) {
  return {
    /** What a side sent (`sessionId`: the session its socket was opened with), stored unless refused. */
    async sendFromSide(signal: SignalRow, sessionId: string): Promise<Refusal | null> {
      const { rows } = await db.$client.query<{ refused: Refusal | null }>({
        name: "call_send_from_side",
        text: SIDE_SIGNAL,
        values: [
          signal.bookingId,
          signal.senderId,
          signal.connectionId,
          signal.kind,
          JSON.stringify(signal.body),
          sessionId,
          limits.windowMs,
          limits.messagesPerWindow,
          limits.signalBytes,
        ],
      });
      return rows[0]?.refused ?? null;
    },

    /** A chat message a side sent, kept with the booking and relayed, unless refused. */
    async chat(from: Omit<SignalRow, "kind" | "body">, text: string, sessionId: string): Promise<Refusal | null> {
      const { rows } = await db.$client.query<{ refused: Refusal | null }>({
        name: "call_chat",
        text: CHAT,
        values: [
          from.bookingId,
          from.senderId,
          from.connectionId,
          text,
          sessionId,
          limits.windowMs,
          limits.messagesPerWindow,
          limits.chatBytes,
        ],
      });
      return rows[0]?.refused ?? null;
    },
  };
}

/** The chat kept with a booking, and what Export My Data takes of the calls module. */
function chatAndExports(db: Database) {
  return {
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
  };
}

/** A session's record: the tutor's ratings and notes, and its end. */
function sessionRecord(db: Database) {
  return {
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
  };
}

export type CallsRepository = ReturnType<typeof createCallsRepository>;
