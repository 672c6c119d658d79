import { and, asc, desc, eq, inArray, or, sql } from "drizzle-orm";
import type { Database, Queryable } from "#server/db/client";
import type { TakeCheck } from "./studio.contract";
import { type StudioTakeRow, studioClip, studioDialogue, studioTake } from "./studio.tables";

export type { StudioTakeRow };

/** A line of the course: the ids of courseAudioPath. */
export interface LineKey {
  chapterId: string;
  dayId: string;
  lineId: string;
}

/** A take's states a newer take of the same line by the same voice replaces: not yet heard by learners. */
const REPLACEABLE = ["processing", "needs-fix", "in-review", "rejected"] as const;

/** What a processed take's row gets: its checks, and its clip when they passed. */
export interface ProcessedRow {
  checks: TakeCheck[];
  passed: boolean;
  durationMs: number | null;
  clip: { key: string; bytes: number } | null;
  loudness: { integratedLufs: number; truePeakDbtp: number } | null;
  processingMs: number;
}

/** The studio's rows: the takes and the published clips (studio.tables.ts). */
export function createStudioRepository(db: Database) {
  return { ...takeRows(db), ...takeReads(db), ...clipRows(), ...clipReads(db) };
}

export type StudioRepository = ReturnType<typeof createStudioRepository>;

/** The takes: each recording, where it stands, its files. */
function takeRows(db: Database) {
  return {
    async take(id: string, q: Queryable = db): Promise<StudioTakeRow | undefined> {
      const [row] = await q.select().from(studioTake).where(eq(studioTake.id, id));
      return row;
    },

    /** Locks a take until the transaction ends (a review against another, or its processing). */
    async lockTake(tx: Queryable, id: string): Promise<StudioTakeRow | undefined> {
      const [row] = await tx.select().from(studioTake).where(eq(studioTake.id, id)).for("update");
      return row;
    },

    /** Stores a new take in `processing`; the voice's earlier takes of the line not yet published are replaced by it. */
    async addTake(
      tx: Queryable,
      row: LineKey & { id: string; voiceId: string; masterKey: string; masterBytes: number } & {
        trimStartMs: number | null;
        trimEndMs: number | null;
      },
    ): Promise<StudioTakeRow> {
      await tx
        .update(studioTake)
        .set({ state: "replaced" })
        .where(
          and(
            eq(studioTake.chapterId, row.chapterId),
            eq(studioTake.dayId, row.dayId),
            eq(studioTake.lineId, row.lineId),
            eq(studioTake.voiceId, row.voiceId),
            inArray(studioTake.state, [...REPLACEABLE]),
          ),
        );
      const [stored] = await tx.insert(studioTake).values(row).returning();
      return stored!;
    },

    /** Writes a processed take's results, if it is still processing; false when it is not (done already, or gone). */
    async finishProcessing(id: string, result: ProcessedRow, q: Queryable = db): Promise<boolean> {
      const rows = await q
        .update(studioTake)
        .set({
          state: result.passed ? "in-review" : "needs-fix",
          checks: result.checks,
          durationMs: result.durationMs,
          clipKey: result.clip?.key ?? null,
          clipBytes: result.clip?.bytes ?? null,
          integratedLufs: result.loudness?.integratedLufs ?? null,
          truePeakDbtp: result.loudness?.truePeakDbtp ?? null,
          processingMs: result.processingMs,
          processedAt: sql`now()`,
        })
        .where(and(eq(studioTake.id, id), eq(studioTake.state, "processing")))
        .returning({ id: studioTake.id });
      return rows.length > 0;
    },
  };
}

/** The takes as the studio lists them, and the keys of their files. */
function takeReads(db: Database) {
  return {
    /** A day's takes that matter to the studio's list: every published one, and each line's latest other take. */
    async dayTakes(chapterId: string, dayId: string): Promise<StudioTakeRow[]> {
      const latest = db
        .selectDistinctOn([studioTake.lineId])
        .from(studioTake)
        .where(
          and(
            eq(studioTake.chapterId, chapterId),
            eq(studioTake.dayId, dayId),
            sql`${studioTake.state} not in ('published', 'replaced', 'unpublished')`,
          ),
        )
        .orderBy(studioTake.lineId, desc(studioTake.createdAt));
      const published = db
        .select()
        .from(studioTake)
        .where(
          and(eq(studioTake.chapterId, chapterId), eq(studioTake.dayId, dayId), eq(studioTake.state, "published")),
        );
      const [a, b] = await Promise.all([latest, published]);
      return [...a, ...b];
    },

    /** Takes waiting for review, oldest first. */
    inReview(): Promise<StudioTakeRow[]> {
      return db
        .select()
        .from(studioTake)
        .where(eq(studioTake.state, "in-review"))
        .orderBy(asc(studioTake.createdAt))
        .limit(200);
    },

    /** How many takes are published and in review per day. */
    async dayCounts() {
      return db
        .select({
          chapterId: studioTake.chapterId,
          dayId: studioTake.dayId,
          state: studioTake.state,
          lines: sql<number>`count(distinct ${studioTake.lineId})::int`,
        })
        .from(studioTake)
        .where(inArray(studioTake.state, ["published", "in-review"]))
        .groupBy(studioTake.chapterId, studioTake.dayId, studioTake.state);
    },

    /** Every take of a voice (their export, and the files their account's deletion removes). */
    takesOf(voiceId: string) {
      return db
        .select()
        .from(studioTake)
        .where(eq(studioTake.voiceId, voiceId))
        .orderBy(asc(studioTake.createdAt), asc(studioTake.id));
    },

    /**
     * Which of these storage keys a take holds, as its master or its clip, or a section's built
     * whole-dialogue recording holds (the sweep keeps those).
     */
    async heldFileKeys(keys: string[]): Promise<Set<string>> {
      if (keys.length === 0) return new Set();
      const [rows, dialogues] = await Promise.all([
        db
          .select({ master: studioTake.masterKey, clip: studioTake.clipKey })
          .from(studioTake)
          .where(or(inArray(studioTake.masterKey, keys), inArray(studioTake.clipKey, keys))),
        db.select({ key: studioDialogue.key }).from(studioDialogue).where(inArray(studioDialogue.key, keys)),
      ]);
      return new Set([
        ...rows.flatMap((row) => [row.master, ...(row.clip ? [row.clip] : [])]),
        ...dialogues.map((row) => row.key),
      ]);
    },
  };
}

/** The published clips: what learners hear in place of espeak. */
function clipRows() {
  /** The line's published clip, locked until the transaction ends. */
  async function lockClip(tx: Queryable, line: LineKey) {
    const [row] = await tx
      .select()
      .from(studioClip)
      .where(
        and(
          eq(studioClip.chapterId, line.chapterId),
          eq(studioClip.dayId, line.dayId),
          eq(studioClip.lineId, line.lineId),
        ),
      )
      .for("update");
    return row;
  }

  return {
    lockClip,

    /** The voices heard for a speaker on a day, other than `voiceId` (one voice per speaker within a day). */
    async otherVoicesOfSpeaker(tx: Queryable, line: Omit<LineKey, "lineId">, speaker: string, voiceId: string) {
      const rows = await tx
        .selectDistinct({ voiceId: studioClip.voiceId })
        .from(studioClip)
        .where(
          and(
            eq(studioClip.chapterId, line.chapterId),
            eq(studioClip.dayId, line.dayId),
            eq(studioClip.speaker, speaker),
            sql`${studioClip.voiceId} <> ${voiceId}`,
          ),
        );
      return rows.map((row) => row.voiceId);
    },

    /** Publishes `take` as its line's clip, the one published before it (if any) then replaced. */
    async publish(
      tx: Queryable,
      take: StudioTakeRow,
      fields: { speaker: string | null; reviewerId: string },
    ): Promise<void> {
      const line = { chapterId: take.chapterId, dayId: take.dayId, lineId: take.lineId };
      const before = await lockClip(tx, line);
      if (before) {
        await tx.update(studioTake).set({ state: "replaced" }).where(eq(studioTake.id, before.takeId));
        await tx.delete(studioClip).where(eq(studioClip.takeId, before.takeId));
      }
      await tx.insert(studioClip).values({
        ...line,
        takeId: take.id,
        speaker: fields.speaker,
        voiceId: take.voiceId,
        publishedBy: fields.reviewerId,
      });
      await tx
        .update(studioTake)
        .set({ state: "published", reviewedBy: fields.reviewerId, reviewedAt: sql`now()`, reason: null })
        .where(eq(studioTake.id, take.id));
    },

    async reject(tx: Queryable, takeId: string, reviewerId: string, reason: string): Promise<void> {
      await tx
        .update(studioTake)
        .set({ state: "rejected", reviewedBy: reviewerId, reviewedAt: sql`now()`, reason })
        .where(eq(studioTake.id, takeId));
    },

    /** Takes the clips of `where` down: their takes are `unpublished`; answers their take ids. */
    async unpublish(tx: Queryable, where: { line: LineKey } | { voiceId: string }): Promise<string[]> {
      const condition =
        "voiceId" in where
          ? eq(studioClip.voiceId, where.voiceId)
          : and(
              eq(studioClip.chapterId, where.line.chapterId),
              eq(studioClip.dayId, where.line.dayId),
              eq(studioClip.lineId, where.line.lineId),
            );
      const removed = await tx.delete(studioClip).where(condition).returning({ takeId: studioClip.takeId });
      const ids = removed.map((row) => row.takeId);
      if (ids.length > 0) {
        await tx.update(studioTake).set({ state: "unpublished" }).where(inArray(studioTake.id, ids));
      }
      return ids;
    },
  };
}

/** The published clips as every page reads them. */
function clipReads(db: Database) {
  return {
    /** Every published clip with its take's clip key, for the public map and for serving. */
    published() {
      return db
        .select({
          chapterId: studioClip.chapterId,
          dayId: studioClip.dayId,
          lineId: studioClip.lineId,
          takeId: studioClip.takeId,
          voiceId: studioClip.voiceId,
        })
        .from(studioClip)
        .orderBy(asc(studioClip.chapterId), asc(studioClip.dayId), asc(studioClip.lineId));
    },

    /** A published clip's take: its key and size; undefined when the take is not published. */
    async publishedFile(takeId: string) {
      const [row] = await db
        .select({ clipKey: studioTake.clipKey })
        .from(studioClip)
        .innerJoin(studioTake, eq(studioTake.id, studioClip.takeId))
        .where(eq(studioClip.takeId, takeId));
      return row?.clipKey ?? undefined;
    },
  };
}
