import { and, asc, eq, inArray, isNull, or, sql } from "drizzle-orm";
import type { Database, Transaction } from "#server/db/client";
import { booking, bookingChange, tutorHours } from "./bookings.tables";

/** A user's own rows: what goes with their account when it is deleted, and their Export My Data. */
export function accountRows(db: Database) {
  return {
    /**
     * What the user wrote about sessions goes with their account: their messages, and the reasons
     * they gave for a cancel or a proposal. The changes themselves stay, for the other side.
     */
    async forgetWordsOf(tx: Transaction, userId: string): Promise<void> {
      await tx.delete(bookingChange).where(and(eq(bookingChange.actorId, userId), eq(bookingChange.kind, "message")));
      await tx
        .update(bookingChange)
        .set({ reason: null })
        .where(
          and(eq(bookingChange.actorId, userId), inArray(bookingChange.kind, ["cancelled", "proposed", "requested"])),
        );
    },

    /** Deletes the user's bookings whose other side is already gone: nobody would be left to see them. */
    async deleteWithNoOtherSide(tx: Transaction, userId: string): Promise<void> {
      await tx
        .delete(booking)
        .where(
          or(
            and(eq(booking.learnerId, userId), isNull(booking.tutorId)),
            and(eq(booking.tutorId, userId), isNull(booking.learnerId)),
          ),
        );
    },

    /** The user's part of Export My Data: their hours, and every booking they are a side of with its changes. */
    async exportFor(userId: string) {
      const [hours, bookings] = await Promise.all([
        db.select().from(tutorHours).where(eq(tutorHours.userId, userId)),
        db
          .select()
          .from(booking)
          .where(or(eq(booking.learnerId, userId), eq(booking.tutorId, userId)))
          .orderBy(asc(booking.startsAt)),
      ]);
      // What the user wrote about their sessions: messages, and the reasons of their cancels and proposals.
      const written = await db
        .select({
          bookingId: bookingChange.bookingId,
          kind: bookingChange.kind,
          text: bookingChange.reason,
          at: bookingChange.at,
        })
        .from(bookingChange)
        .where(
          and(
            eq(bookingChange.actorId, userId),
            inArray(bookingChange.kind, ["message", "cancelled", "proposed", "requested"]),
            sql`${bookingChange.reason} is not null`,
          ),
        )
        .orderBy(asc(bookingChange.at), asc(bookingChange.id));
      return { hours: hours[0] ?? null, bookings, written };
    },
  };
}
