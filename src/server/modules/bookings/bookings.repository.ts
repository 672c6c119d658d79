import { and, asc, desc, eq, gt, inArray, lt, lte, or, sql } from "drizzle-orm";
import { BOOKING_REMINDERS, type BookingReminderKind, HOLDING_STATUSES } from "#course/bookings";
import type { Database, Queryable, Transaction } from "#server/db/client";
import { LOCK_CLASSES } from "#server/db/locks";
import { accountRows } from "./bookings.account.repository";
import { booking, bookingChange, bookingReminder, tutorHours } from "./bookings.tables";

export type BookingRow = typeof booking.$inferSelect;
export type TutorHoursRow = typeof tutorHours.$inferSelect;
export type BookingChangeRow = typeof bookingChange.$inferSelect;

const holding = inArray(booking.status, [...HOLDING_STATUSES]);

/**
 * The bookings module's tables: tutor_hours, booking, booking_change, booking_reminder. Changes and
 * reminders are dated by the module's clock (`now`), as the times they are judged against are.
 */
export function createBookingsRepository(db: Database, now: () => Date) {
  return {
    ...hours(db),
    ...bookingWrites(db, now),
    ...timesTaken(db),
    ...calendars(db),
    ...changes(db, now),
    ...reminders(db, now),
    ...accountRows(db),
  };
}

/** Tutors' hours: saved, read one by one or for many, and every tutor's that hold any. */
function hours(db: Database) {
  return {
    hoursOf: async (userId: string, q: Queryable = db): Promise<TutorHoursRow | undefined> =>
      (await q.select().from(tutorHours).where(eq(tutorHours.userId, userId)))[0],

    async saveHours(values: typeof tutorHours.$inferInsert): Promise<TutorHoursRow> {
      const { userId, ...changes } = values;
      const [row] = await db
        .insert(tutorHours)
        .values(values)
        .onConflictDoUpdate({ target: tutorHours.userId, set: { ...changes, updatedAt: sql`now()` } })
        .returning();
      return row!;
    },

    /** The hours of those of these users who have saved some, by id. */
    async hoursOfEach(userIds: readonly string[], q: Queryable = db): Promise<Map<string, TutorHoursRow>> {
      if (userIds.length === 0) return new Map();
      const rows = await q
        .select()
        .from(tutorHours)
        .where(inArray(tutorHours.userId, [...userIds]));
      return new Map(rows.map((row) => [row.userId, row]));
    },

    /** The zones these tutors set their hours in, by id: where a tutor reads times. */
    async hoursZonesOf(userIds: string[]): Promise<Map<string, string>> {
      if (userIds.length === 0) return new Map();
      const rows = await db
        .select({ userId: tutorHours.userId, timeZone: tutorHours.timeZone })
        .from(tutorHours)
        .where(inArray(tutorHours.userId, userIds));
      return new Map(rows.map((row) => [row.userId, row.timeZone]));
    },

    /** Every tutor's hours that hold any: weekly ranges or a date with extra hours. */
    publishedHours: (): Promise<TutorHoursRow[]> =>
      db
        .select()
        .from(tutorHours)
        .where(
          sql`jsonb_path_exists(${tutorHours.weekly}, '$[*].ranges[0]') or jsonb_path_exists(${tutorHours.exceptions}, '$[*] ? (@.kind == "extra")')`,
        ),
  };
}

/** A booking written, changed and read by id, in the caller's transaction where one is given. */
function bookingWrites(db: Database, now: () => Date) {
  return {
    /** Makes this learner's bookings take turns until the transaction ends (their limits are counted first). */
    async lockLearner(tx: Transaction, learnerId: string): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASSES.learnerBookings}::int, hashtext(${learnerId}))`);
    },

    async insert(tx: Transaction, row: typeof booking.$inferInsert): Promise<BookingRow> {
      const [stored] = await tx.insert(booking).values(row).returning();
      return stored!;
    },

    /**
     * Writes a new booking and its first change (`kind`, by `actorId`) in one statement: the change
     * row is written from the booking's. Answers the booking as stored and the change's moment.
     */
    async insertWithChange(
      tx: Transaction,
      row: typeof booking.$inferInsert,
      change: Pick<BookingChangeRow, "kind" | "actorId">,
    ): Promise<{ row: BookingRow; at: Date }> {
      const at = now();
      const inserted = tx.$with("inserted").as(tx.insert(booking).values(row).returning());
      const changed = tx.$with("changed").as(
        tx
          .insert(bookingChange)
          .values({ bookingId: sql`(select ${inserted.id} from ${inserted})`, ...change, at })
          .returning({ id: bookingChange.id }),
      );
      const [stored] = await tx.with(inserted, changed).select().from(inserted);
      return { row: stored!, at };
    },

    async update(tx: Transaction, id: string, changes: Partial<typeof booking.$inferInsert>): Promise<BookingRow> {
      const [row] = await tx.update(booking).set(changes).where(eq(booking.id, id)).returning();
      return row!;
    },

    /**
     * Marks that the booking's learner and tutor were in its room together, from the first time they
     * were: `userIds` are two people who met there, an Admin following the room is not its learner or tutor.
     * A no-show marked before they met (a tutor who came late) is lifted: the session took place.
     */
    async markMet(bookingId: string, userIds: readonly [string, string]): Promise<void> {
      await db
        .update(booking)
        .set({ metAt: sql`coalesce(${booking.metAt}, ${now()})`, noShow: null, noShowBy: null, noShowAt: null })
        .where(
          and(
            eq(booking.id, bookingId),
            inArray(booking.learnerId, [...userIds]),
            inArray(booking.tutorId, [...userIds]),
          ),
        );
    },

    /** One booking, locked for the caller's transaction when `forUpdate`. */
    async byId(id: string, q: Queryable = db, { forUpdate = false } = {}): Promise<BookingRow | undefined> {
      const query = q.select().from(booking).where(eq(booking.id, id));
      return (await (forUpdate ? query.for("update") : query))[0];
    },
  };
}

/** The times taken: new times proposed and waiting, busy times, the sessions learners have yet to have. */
function timesTaken(db: Database) {
  return {
    /** The new times proposed for these bookings and waiting, by the booking they would replace. */
    async proposalsFor(bookingIds: readonly string[]): Promise<Map<string, BookingRow>> {
      if (bookingIds.length === 0) return new Map();
      const rows = await db
        .select()
        .from(booking)
        .where(and(inArray(booking.replacesId, [...bookingIds]), eq(booking.status, "proposed")));
      return new Map(rows.map((row) => [row.replacesId!, row]));
    },

    /** The new time asked for a booking and waiting for the other side's answer. */
    async proposalFor(bookingId: string, q: Queryable = db): Promise<BookingRow | undefined> {
      const [row] = await q
        .select()
        .from(booking)
        .where(and(eq(booking.replacesId, bookingId), eq(booking.status, "proposed")));
      return row;
    },

    /**
     * The time these tutors have taken (or hold for a proposal), and this learner's own sessions,
     * that end after `from` and start before `to`.
     */
    busyOf(tutorIds: string[], learnerId: string, from: Date, to: Date, q: Queryable = db) {
      const whose =
        tutorIds.length > 0
          ? or(inArray(booking.tutorId, tutorIds), eq(booking.learnerId, learnerId))
          : eq(booking.learnerId, learnerId);
      return q
        .select({
          tutorId: booking.tutorId,
          learnerId: booking.learnerId,
          inviteUid: booking.inviteUid,
          startsAt: booking.startsAt,
          endsAt: booking.endsAt,
        })
        .from(booking)
        .where(and(whose, holding, gt(booking.endsAt, from), lt(booking.startsAt, to)));
    },

    /** The learner's confirmed sessions that have not started at `now`. */
    upcomingOf(learnerId: string, now: Date, q: Queryable = db) {
      return q
        .select({ id: booking.id, chapterId: booking.chapterId, dayId: booking.dayId })
        .from(booking)
        .where(and(eq(booking.learnerId, learnerId), eq(booking.status, "confirmed"), gt(booking.startsAt, now)));
    },

    /** The confirmed upcoming sessions of these learners, for the tutor's list of who has not booked. */
    upcomingOfLearners(learnerIds: string[], now: Date) {
      if (learnerIds.length === 0) return Promise.resolve([]);
      return db
        .select({ learnerId: booking.learnerId, chapterId: booking.chapterId, dayId: booking.dayId })
        .from(booking)
        .where(and(inArray(booking.learnerId, learnerIds), holding, gt(booking.endsAt, now)));
    },
  };
}

/** A user's sessions in order, as learner or tutor, for their lists and calendars. */
function calendars(db: Database) {
  return {
    /** The user's bookings, as learner or tutor, that end after `from`, with proposals left out, in order. */
    bookingsOf(userId: string, from: Date) {
      return db
        .select()
        .from(booking)
        .where(
          and(
            or(eq(booking.learnerId, userId), eq(booking.tutorId, userId)),
            inArray(booking.status, ["confirmed", "cancelled"]),
            gt(booking.endsAt, from),
          ),
        )
        .orderBy(asc(booking.startsAt));
    },

    /** The learner's confirmed sessions that ended by `before`, in order: those held stay their day's record. */
    pastSessionsOfLearner(learnerId: string, before: Date) {
      return db
        .select()
        .from(booking)
        .where(and(eq(booking.learnerId, learnerId), eq(booking.status, "confirmed"), lte(booking.endsAt, before)))
        .orderBy(asc(booking.startsAt));
    },

    /** The tutor's sessions between two instants, confirmed or cancelled, in order. */
    sessionsOf(tutorId: string, from: Date, to: Date) {
      return db
        .select()
        .from(booking)
        .where(
          and(
            eq(booking.tutorId, tutorId),
            inArray(booking.status, ["confirmed", "cancelled"]),
            gt(booking.endsAt, from),
            lt(booking.startsAt, to),
          ),
        )
        .orderBy(asc(booking.startsAt));
    },

    /** The user's confirmed sessions, as learner or tutor, that start after `at`, locked for `q`'s transaction. */
    upcomingSessionsOf(userId: string, at: Date, q: Queryable = db, { forUpdate = false } = {}) {
      const query = q
        .select()
        .from(booking)
        .where(
          and(
            or(eq(booking.learnerId, userId), eq(booking.tutorId, userId)),
            eq(booking.status, "confirmed"),
            gt(booking.startsAt, at),
          ),
        )
        .orderBy(asc(booking.startsAt));
      return forUpdate ? query.for("update") : query;
    },
  };
}

/** The changes of bookings: written, listed for their calendar events, messages counted. */
function changes(db: Database, now: () => Date) {
  return {
    /** Writes a change; answers its id (an event names the change whose words its mail quotes). */
    async addChange(tx: Transaction, change: typeof bookingChange.$inferInsert): Promise<number> {
      const [row] = await tx
        .insert(bookingChange)
        .values({ at: now(), ...change })
        .returning({ id: bookingChange.id });
      return row!.id;
    },

    /** What a change's maker wrote (a reason, a message); undefined once it went with their account. */
    async wordsOf(q: Queryable, changeId: number): Promise<{ reason: string | null } | undefined> {
      const [row] = await q
        .select({ reason: bookingChange.reason })
        .from(bookingChange)
        .where(eq(bookingChange.id, changeId));
      return row;
    },

    /** Every change of the bookings of these calendar events, oldest first. */
    changesOf(inviteUids: string[]) {
      if (inviteUids.length === 0) return Promise.resolve([]);
      return db
        .select({
          inviteUid: booking.inviteUid,
          kind: bookingChange.kind,
          actorId: bookingChange.actorId,
          reason: bookingChange.reason,
          at: bookingChange.at,
        })
        .from(bookingChange)
        .innerJoin(booking, eq(booking.id, bookingChange.bookingId))
        .where(inArray(booking.inviteUid, inviteUids))
        .orderBy(asc(bookingChange.at), asc(bookingChange.id));
    },

    /**
     * Who asked for the time waiting on a booking, by the change that asked: the learner when it was
     * "requested"; the tutor's side when "proposed", or when no change says (a proposal kept from before).
     */
    async askerOf(bookingId: string, q: Queryable = db): Promise<"learner" | "tutor"> {
      const [row] = await q
        .select({ kind: bookingChange.kind })
        .from(bookingChange)
        .where(and(eq(bookingChange.bookingId, bookingId), inArray(bookingChange.kind, ["proposed", "requested"])))
        .orderBy(desc(bookingChange.id))
        .limit(1);
      return row?.kind === "requested" ? "learner" : "tutor";
    },

    /** How many messages a booking's event carries. */
    async messageCount(tx: Transaction, inviteUid: string): Promise<number> {
      const [row] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(bookingChange)
        .innerJoin(booking, eq(booking.id, bookingChange.bookingId))
        .where(and(eq(booking.inviteUid, inviteUid), eq(bookingChange.kind, "message")));
      return row!.count;
    },
  };
}

/** The reminders of sessions: which are due, and each claimed once. */
function reminders(db: Database, now: () => Date) {
  return {
    /**
     * The reminders due at `now` and not yet claimed: each kind from its moment before the start
     * until the next kind's, for sessions confirmed at their time before that moment (a session
     * booked or moved inside a day gets only the 10-minute one). The last kind, "starting soon",
     * goes to every session still to start, however late it was booked or moved there: a session
     * moved to start in 8 minutes is no less about to start.
     */
    async dueReminders(now: Date): Promise<{ booking: BookingRow; kind: BookingReminderKind }[]> {
      const due: { booking: BookingRow; kind: BookingReminderKind }[] = [];
      for (const [index, reminder] of BOOKING_REMINDERS.entries()) {
        const next = BOOKING_REMINDERS[index + 1];
        const opens = new Date(now.getTime() + reminder.beforeMs);
        const closes = new Date(now.getTime() + (next?.beforeMs ?? 0));
        const rows = await db
          .select()
          .from(booking)
          .where(
            and(
              eq(booking.status, "confirmed"),
              lt(booking.startsAt, opens),
              gt(booking.startsAt, closes),
              next
                ? lt(booking.confirmedAt, sql`${booking.startsAt} - make_interval(secs => ${reminder.beforeMs / 1000})`)
                : undefined,
              sql`not exists (select 1 from ${bookingReminder} where ${bookingReminder.bookingId} = ${booking.id} and ${bookingReminder.kind} = ${reminder.kind})`,
            ),
          );
        due.push(...rows.map((row) => ({ booking: row, kind: reminder.kind })));
      }
      return due;
    },

    /** Claims a booking's reminder; false when another run claimed it first. */
    async claimReminder(tx: Transaction, bookingId: string, kind: BookingReminderKind): Promise<boolean> {
      const [claim] = await tx
        .insert(bookingReminder)
        .values({ bookingId, kind, sentAt: now() })
        .onConflictDoNothing()
        .returning({ bookingId: bookingReminder.bookingId });
      return claim !== undefined;
    },
  };
}

export type BookingsRepository = ReturnType<typeof createBookingsRepository>;
