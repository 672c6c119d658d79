import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client";
import { reviewPinNote } from "./review.tables";

/** A phrase of a day, as a tutor pins it. */
export interface PinTarget {
  chapterId: string;
  dayId: string;
  phraseId: string;
}

/** What a tutor said of a phrase they pinned after hearing it: shown on its spoken card (review.contract.ts, `tutor`). */
export interface PinNote {
  /** The tutor's rating, 1-5. */
  rating: number;
  comment: string | null;
  /** The take rated; null for a live session's rating. */
  takeId: string | null;
}

const keyOf = (target: PinTarget) => `${target.chapterId}/${target.dayId}/${target.phraseId}`;

/** review_pin_note: a pinned phrase's tutor note, one per learner and phrase. */
export function createPinNotes(db: Database) {
  return {
    /** Keeps the note of a pin, replacing the phrase's earlier one. */
    async save(q: Queryable, learnerId: string, target: PinTarget, note: PinNote, at: Date): Promise<void> {
      const values = { userId: learnerId, ...target, ...note, pinnedAt: at };
      await q
        .insert(reviewPinNote)
        .values(values)
        .onConflictDoUpdate({
          target: [reviewPinNote.userId, reviewPinNote.chapterId, reviewPinNote.dayId, reviewPinNote.phraseId],
          set: { rating: note.rating, comment: note.comment, takeId: note.takeId, pinnedAt: at },
        });
    },

    /** Removes the phrase's note: a new pin without one replaces it with none. */
    async clear(q: Queryable, learnerId: string, target: PinTarget): Promise<void> {
      await q
        .delete(reviewPinNote)
        .where(
          and(
            eq(reviewPinNote.userId, learnerId),
            eq(reviewPinNote.chapterId, target.chapterId),
            eq(reviewPinNote.dayId, target.dayId),
            eq(reviewPinNote.phraseId, target.phraseId),
          ),
        );
    },

    /** The notes of these phrases of the learner, by "chapter/day/phrase". */
    async of(learnerId: string, targets: readonly PinTarget[]): Promise<Map<string, PinNote>> {
      if (targets.length === 0) return new Map();
      const rows = await db
        .select({
          chapterId: reviewPinNote.chapterId,
          dayId: reviewPinNote.dayId,
          phraseId: reviewPinNote.phraseId,
          rating: reviewPinNote.rating,
          comment: reviewPinNote.comment,
          takeId: reviewPinNote.takeId,
        })
        .from(reviewPinNote)
        .where(
          and(
            eq(reviewPinNote.userId, learnerId),
            inArray(
              sql`(${reviewPinNote.chapterId} || '/' || ${reviewPinNote.dayId} || '/' || ${reviewPinNote.phraseId})`,
              [...new Set(targets.map(keyOf))],
            ),
          ),
        );
      return new Map(rows.map((row) => [keyOf(row), { rating: row.rating, comment: row.comment, takeId: row.takeId }]));
    },
  };
}

export type PinNotes = ReturnType<typeof createPinNotes>;
