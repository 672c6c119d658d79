import type { AccountPart, ExportReading } from "#server/modules/module";
import type { ExportedBooking, ExportedBookingMessage, ExportedTutorHours } from "./bookings.contract";
import type { BookingsService } from "./bookings.service";

type BookingsExport = Awaited<ReturnType<BookingsService["exportFor"]>>;

function tutorHoursOf(hours: BookingsExport["hours"]): ExportedTutorHours | null {
  if (!hours) return null;
  const { timeZone, bio, languages, sessionMinutes, noticeHours, horizonDays, weekly, exceptions, updatedAt } = hours;
  return { timeZone, bio, languages, sessionMinutes, noticeHours, horizonDays, weekly, exceptions, updatedAt };
}

function bookingsOf(rows: BookingsExport["bookings"], userId: string): ExportedBooking[] {
  return rows.map((row) => ({
    id: row.id,
    role: row.learnerId === userId ? "learner" : "tutor",
    chapterId: row.chapterId,
    dayId: row.dayId,
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    status: row.status,
    noShow: row.noShow,
    createdAt: row.createdAt,
  }));
}

function messagesOf(rows: BookingsExport["written"]): ExportedBookingMessage[] {
  return rows.map((row) => ({
    bookingId: row.bookingId,
    kind: row.kind as ExportedBookingMessage["kind"],
    text: row.text ?? "",
    at: row.at,
  }));
}

/**
 * The bookings' part of an account: a tutor's hours, every session booked as learner or tutor and
 * what the account wrote about them, for the export; and in a deletion (decision 064) the sides of
 * the sessions to come read before its transaction, then those sessions cancelled in it, with a
 * CANCEL to both sides.
 */
export function bookingsAccountPart(bookings: BookingsService): AccountPart {
  const read = (reading: ExportReading) => reading.once("bookings", () => bookings.exportFor(reading.userId));
  return {
    export: {
      tutorHours: async (reading) => tutorHoursOf((await read(reading)).hours),
      bookings: async (reading) => bookingsOf((await read(reading)).bookings, reading.userId),
      bookingMessages: async (reading) => messagesOf((await read(reading)).written),
    },
    async close(userId) {
      const closing = await bookings.prepareAccountClosing(userId);
      return {
        async inTransaction(tx) {
          await bookings.closeAccount(tx, closing);
        },
      };
    },
  };
}
