import type { DayRef } from "#course/progress-rules";
import type { Transaction } from "#server/db/client";
import { roomAccessChanged } from "#server/db/room-access";
import type { Party } from "./bookings.parties";
import type { BookingRow, BookingsRepository } from "./bookings.repository";

/**
 * Cancels a session in the caller's transaction, as every cancel does: its waiting proposal goes,
 * SEQUENCE goes up (the CANCEL invite replaces the last), its room's sockets are told, and the
 * change is kept with who and why.
 */
export async function cancelSession(
  tx: Transaction,
  bookings: BookingsRepository,
  row: BookingRow,
  actorId: string,
  reason: string | null,
): Promise<{ row: BookingRow; changeId: number }> {
  const proposal = await bookings.proposalFor(row.id, tx);
  if (proposal) await bookings.update(tx, proposal.id, { status: "cancelled" });
  const cancelled = await bookings.update(tx, row.id, { status: "cancelled", sequence: row.sequence + 1 });
  await roomAccessChanged(tx, { bookingId: row.id });
  const changeId = await bookings.addChange(tx, { bookingId: row.id, kind: "cancelled", actorId, reason });
  return { row: cancelled, changeId };
}

/** Writes a booking's email to each side (bookings.notices.ts's tellBoth). */
type TellBoth = (
  tx: Transaction,
  row: BookingRow,
  parties: Map<string, Party>,
  write: (reader: Party, other: Party, when: (instant: Date) => string) => { subject: string; text: string },
  options?: { method?: "REQUEST" | "CANCEL"; only?: "learner" | "tutor" },
) => Promise<void>;

export interface AccountClosingDeps {
  bookings: BookingsRepository;
  partiesOf: (ids: (string | null)[]) => Promise<Map<string, Party>>;
  tellBoth: TellBoth;
  dayTitle: (target: DayRef) => string;
  now: () => Date;
}

/** The people of a closing account's upcoming sessions, read before its deletion's transaction. */
export interface AccountClosing {
  userId: string;
  parties: Map<string, Party>;
}

/**
 * The bookings' part of an account's deletion (docs/decisions/064): the other side of each session
 * keeps it. Every session still to come is cancelled as a cancel would (a proposal waiting goes
 * with it, the SEQUENCE is raised, both sides get the CANCEL and are told why), whatever the notice;
 * past sessions stay as they were. The foreign keys then set the deleted side to null, shown as "A
 * former learner" or "A former tutor".
 */
export function accountClosing({ bookings, partiesOf, tellBoth, dayTitle, now }: AccountClosingDeps) {
  return {
    /**
     * The sides of the user's upcoming sessions, read before the deletion's transaction (a
     * transaction holds one of the pool's connections, and the reads ask the pool for more).
     */
    async prepareAccountClosing(userId: string): Promise<AccountClosing> {
      const upcoming = await bookings.upcomingSessionsOf(userId, now());
      return { userId, parties: await partiesOf([userId, ...upcoming.flatMap((row) => [row.learnerId, row.tutorId])]) };
    },

    /**
     * In the deletion's transaction, before the user's row goes: forgets what the user wrote about
     * sessions, deletes the sessions whose other side is gone already, and cancels the upcoming
     * ones. The CANCEL reaches the leaving user too (written after the outbox forgot their address),
     * so no session stays in their calendar either. Answers how many sessions were cancelled.
     */
    async closeAccount(tx: Transaction, { userId, parties }: AccountClosing): Promise<number> {
      await bookings.forgetWordsOf(tx, userId);
      await bookings.deleteWithNoOtherSide(tx, userId);
      const upcoming = await bookings.upcomingSessionsOf(userId, now(), tx, { forUpdate: true });
      for (const row of upcoming) {
        const leaving = row.learnerId === userId ? "learner" : "tutor";
        const { row: cancelled } = await cancelSession(
          tx,
          bookings,
          row,
          userId,
          `The ${leaving} closed their Jalan account.`,
        );
        await tellBoth(
          tx,
          cancelled,
          parties,
          (reader, _other, when) => ({
            subject: `Cancelled: ${dayTitle(row)} live session, ${when(row.startsAt)}`,
            text: [
              reader.id === userId
                ? `Your live session for ${dayTitle(row)} on ${when(row.startsAt)} is cancelled: you closed your Jalan account.`
                : `Your live session for ${dayTitle(row)} on ${when(row.startsAt)} is cancelled: your ${leaving} closed their Jalan account.`,
              reader.id === userId
                ? "The attached update removes it from your calendar."
                : "The attached update removes it from your calendar. Book another time on the session's page.",
            ].join("\n"),
          }),
          { method: "CANCEL" },
        );
      }
      return upcoming.length;
    },
  };
}
