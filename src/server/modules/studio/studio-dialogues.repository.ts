import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client";
import { LOCK_CLASSES } from "#server/db/locks";
import { type StudioDialogueRow, studioClip, studioDialogue, studioTake } from "./studio.tables";

export type { StudioDialogueRow };

/** A story section of the course: the ids of sectionDialogueAudioPath. */
export interface SectionKey {
  chapterId: string;
  dayId: string;
  sectionId: string;
}

const ofSection = (key: SectionKey) =>
  and(
    eq(studioDialogue.chapterId, key.chapterId),
    eq(studioDialogue.dayId, key.dayId),
    eq(studioDialogue.sectionId, key.sectionId),
  );

/** The sections' whole-dialogue recordings built with native lines (studio.tables.ts, studio_dialogue). */
export function createDialogueRepository(db: Database) {
  async function dialogue(key: SectionKey, q: Queryable = db): Promise<StudioDialogueRow | undefined> {
    const [row] = await q.select().from(studioDialogue).where(ofSection(key));
    return row;
  }

  return {
    dialogue,

    /** The published takes of these lines of a day: each line's take, its clip's key and its voice. */
    publishedTakes(key: Omit<SectionKey, "sectionId">, lineIds: string[], q: Queryable = db) {
      if (lineIds.length === 0) return Promise.resolve([]);
      return q
        .select({
          lineId: studioClip.lineId,
          takeId: studioClip.takeId,
          voiceId: studioClip.voiceId,
          clipKey: studioTake.clipKey,
        })
        .from(studioClip)
        .innerJoin(studioTake, eq(studioTake.id, studioClip.takeId))
        .where(
          and(
            eq(studioClip.chapterId, key.chapterId),
            eq(studioClip.dayId, key.dayId),
            inArray(studioClip.lineId, lineIds),
          ),
        );
    },

    /** The lines of these takes (whose clips just came down). */
    linesOfTakes(q: Queryable, takeIds: string[]) {
      if (takeIds.length === 0) return Promise.resolve([]);
      return q
        .select({ chapterId: studioTake.chapterId, dayId: studioTake.dayId, lineId: studioTake.lineId })
        .from(studioTake)
        .where(inArray(studioTake.id, takeIds));
    },

    /** Holds the section's recording for this transaction: one build writes it at a time. */
    async lockSection(tx: Queryable, key: SectionKey): Promise<void> {
      const name = `${key.chapterId}/${key.dayId}/${key.sectionId}`;
      await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_CLASSES.studioDialogue}::int, hashtext(${name}))`);
    },

    /** Writes the section's recording; answers the key of the one it replaced, if any. */
    async keep(tx: Queryable, row: Omit<StudioDialogueRow, "builtAt">): Promise<string | undefined> {
      const before = await dialogue(row, tx);
      await tx
        .insert(studioDialogue)
        .values(row)
        .onConflictDoUpdate({
          target: [studioDialogue.chapterId, studioDialogue.dayId, studioDialogue.sectionId],
          set: { id: row.id, key: row.key, bytes: row.bytes, builtFrom: row.builtFrom, builtAt: sql`now()` },
        });
      return before?.key;
    },

    /** Removes the section's recording; answers its key, if it had one. */
    async remove(tx: Queryable, key: SectionKey): Promise<string | undefined> {
      const [removed] = await tx.delete(studioDialogue).where(ofSection(key)).returning({ key: studioDialogue.key });
      return removed?.key;
    },

    /** Every built recording, for the public list. */
    dialogues(): Promise<StudioDialogueRow[]> {
      return db
        .select()
        .from(studioDialogue)
        .orderBy(asc(studioDialogue.chapterId), asc(studioDialogue.dayId), asc(studioDialogue.sectionId));
    },

    /** A built recording's file, by its id; undefined once superseded or removed. */
    async dialogueFile(id: string): Promise<string | undefined> {
      const [row] = await db.select({ key: studioDialogue.key }).from(studioDialogue).where(eq(studioDialogue.id, id));
      return row?.key;
    },
  };
}

export type DialogueRepository = ReturnType<typeof createDialogueRepository>;
