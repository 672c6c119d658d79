import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, primaryKey, real, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { TAKE_STATES } from "#course/studio";
import { user } from "#server/db/auth.tables";
import { quoted } from "#server/db/columns";
import type { TakeCheck } from "./studio.contract";

/**
 * One recording of a course line by a voice (docs/decisions/078-voice-studio.md): its WAV master and,
 * once its checks passed, its processed clip, both in the media storage under keys made by the
 * server; where it stands; a reviewer's decision. It goes with its voice's account (their clips then
 * leave the course). A line is (chapter_id, day_id, line_id), the ids of courseAudioPath.
 */
export const studioTake = pgTable(
  "studio_take",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    lineId: text("line_id").notNull(),
    voiceId: text("voice_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    state: text("state", { enum: TAKE_STATES }).notNull().default("processing"),
    masterKey: text("master_key").notNull(),
    masterBytes: integer("master_bytes").notNull(),
    /** The part of the master the voice kept, in ms; null: the whole. */
    trimStartMs: integer("trim_start_ms"),
    trimEndMs: integer("trim_end_ms"),
    checks: jsonb("checks").$type<TakeCheck[]>().notNull().default([]),
    clipKey: text("clip_key"),
    clipBytes: integer("clip_bytes"),
    durationMs: integer("duration_ms"),
    integratedLufs: real("integrated_lufs"),
    truePeakDbtp: real("true_peak_dbtp"),
    /** How long the processing job took, for the studio's figures. */
    processingMs: integer("processing_ms"),
    reviewedBy: text("reviewed_by").references(() => user.id, { onDelete: "set null" }),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }),
    reason: text("reason"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (table) => [
    index("studio_take_line_idx").on(table.chapterId, table.dayId, table.lineId, table.createdAt),
    index("studio_take_voice_idx").on(table.voiceId),
    index("studio_take_review_idx").on(table.createdAt).where(sql`${table.state} = 'in-review'`),
    check("studio_take_state_check", sql`${table.state} in (${sql.raw(quoted(TAKE_STATES))})`),
  ],
);

/**
 * The line's published clip: at most one per line, the take it plays. A row here is what learners
 * hear; none, and they hear espeak. Deleted with its take (and so with its voice's account).
 */
export const studioClip = pgTable(
  "studio_clip",
  {
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    lineId: text("line_id").notNull(),
    takeId: uuid("take_id")
      .notNull()
      .unique()
      .references(() => studioTake.id, { onDelete: "cascade" }),
    /** Who says the line in the story (null: the narrator or the cards' voice): one voice per speaker within a day. */
    speaker: text("speaker"),
    voiceId: text("voice_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    publishedBy: text("published_by").references(() => user.id, { onDelete: "set null" }),
    publishedAt: timestamp("published_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.chapterId, table.dayId, table.lineId] }),
    index("studio_clip_voice_idx").on(table.voiceId),
  ],
);

export type StudioTakeRow = typeof studioTake.$inferSelect;

/**
 * A story section's whole-dialogue recording rebuilt with its native lines (dayDialogueRecordings):
 * once any line of the section is published, learners hear this file at the section's
 * sectionDialogueAudioPath in place of espeak's. `builtFrom` names the takes it was made of, in
 * order (a hash of their ids), so a build whose takes are still the published ones is not redone.
 * A new build is a new id and a new file; none published, and the row goes.
 */
export const studioDialogue = pgTable(
  "studio_dialogue",
  {
    chapterId: text("chapter_id").notNull(),
    dayId: text("day_id").notNull(),
    sectionId: text("section_id").notNull(),
    id: uuid("id").notNull().unique(),
    key: text("key").notNull(),
    bytes: integer("bytes").notNull(),
    builtFrom: text("built_from").notNull(),
    builtAt: timestamp("built_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.chapterId, table.dayId, table.sectionId] })],
);

export type StudioDialogueRow = typeof studioDialogue.$inferSelect;
