import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { VOICE_ACCENT_IDS } from "#course/voices";
import { user } from "#server/db/auth.tables";
import { quoted, updatedAt } from "#server/db/columns";

/**
 * A voice: a Tutor or Admin an Admin named to record the course (docs/decisions/077-voices.md), with
 * the name their clips are credited to and their accent. It goes with the account.
 */
export const voice = pgTable(
  "voice",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    creditedName: text("credited_name").notNull(),
    accent: text("accent", { enum: VOICE_ACCENT_IDS }).notNull(),
    /** The Admin who granted it; null once their account is gone. */
    grantedBy: text("granted_by").references(() => user.id, { onDelete: "set null" }),
    grantedAt: timestamp("granted_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
  },
  (table) => [check("voice_accent_check", sql`${table.accent} in (${sql.raw(quoted(VOICE_ACCENT_IDS))})`)],
);

/**
 * Each consent a voice gave to the use of their recordings: the version of the words and when, and
 * when it was withdrawn. At most one stands (not withdrawn) per user. Kept after a grant is revoked,
 * as the record of what was consented to; it goes with the account.
 */
export const voiceConsent = pgTable(
  "voice_consent",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    version: text("version").notNull(),
    consentedAt: timestamp("consented_at", { withTimezone: true }).notNull().defaultNow(),
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("voice_consent_standing_idx").on(table.userId).where(sql`${table.withdrawnAt} is null`),
    index("voice_consent_user_idx").on(table.userId, table.consentedAt),
    check("voice_consent_withdrawn_after_check", sql`${table.withdrawnAt} >= ${table.consentedAt}`),
  ],
);
