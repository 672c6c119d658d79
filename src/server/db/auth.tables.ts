import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import {
  DAILY_GOAL_UNITS,
  DEFAULT_DAILY_GOAL,
  DEFAULT_NEW_CARDS_PER_DAY,
  DEFAULT_REMINDER_HOUR,
  DEFAULT_TIME_ZONE,
  MAX_NEW_CARDS_PER_DAY,
} from "#course/review-rules";
import { ROLES } from "#course/roles";
import { THEMES } from "#course/themes";
import { createdAt, updatedAt } from "./columns";

/**
 * Better Auth's tables (users, sessions, accounts, verifications, two-factor secrets, its rate limits):
 * Better Auth writes them through its drizzle adapter (auth/auth.ts); the repositories of the modules
 * that keep a person's facts in the user row (account, profile, settings, users) read and write them too.
 */

export const roleEnum = pgEnum("role", ROLES);

/**
 * Better Auth's user table, extended with the learner's profile (spec section 3, "profiles"), their
 * settings (theme, email notifications) and the two-factor plugin's flag.
 */
export const user = pgTable(
  "user",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    nickname: text("nickname"),
    role: roleEnum("role").notNull().default("Student"),
    avatarPath: text("avatar_path"),
    theme: text("theme", { enum: THEMES }).notNull().default("light"),
    emailNotifications: boolean("email_notifications").notNull().default(true),
    /** Set by Better Auth's two-factor plugin once an authenticator code has been verified. */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    /** The daily review goal (src/course/review-rules.ts): a number of reviews, or of minutes. */
    dailyGoalUnit: text("daily_goal_unit", { enum: DAILY_GOAL_UNITS }).notNull().default("reviews"),
    dailyGoal: integer("daily_goal").notNull().default(DEFAULT_DAILY_GOAL.reviews),
    /** Where the learner's days begin and end, for the reminder and a day's goal (an IANA name). */
    timeZone: text("time_zone").notNull().default(DEFAULT_TIME_ZONE),
    /** The local hour (0-23) of the daily review reminder, sent only with emailNotifications on. */
    reminderHour: integer("reminder_hour").notNull().default(DEFAULT_REMINDER_HOUR),
    /** Cards met but never reviewed that may enter the learner's due pile per local day (decision 055). */
    newCardsPerDay: integer("new_cards_per_day").notNull().default(DEFAULT_NEW_CARDS_PER_DAY),
    /**
     * Names the learner in the unsubscribe links of their reminders, in place of their id; replaced
     * when they turn email notifications on again, which revokes every link sent before.
     */
    unsubscribeKey: uuid("unsubscribe_key").notNull().unique().defaultRandom(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check("user_theme_check", sql`${table.theme} in (${sql.raw(THEMES.map((theme) => `'${theme}'`).join(", "))})`),
    check(
      "user_daily_goal_unit_check",
      sql`${table.dailyGoalUnit} in (${sql.raw(DAILY_GOAL_UNITS.map((unit) => `'${unit}'`).join(", "))})`,
    ),
    check("user_daily_goal_check", sql`${table.dailyGoal} > 0`),
    check("user_reminder_hour_check", sql`${table.reminderHour} between 0 and 23`),
    check(
      "user_new_cards_per_day_check",
      sql`${table.newCardsPerDay} between 0 and ${sql.raw(String(MAX_NEW_CARDS_PER_DAY))}`,
    ),
  ],
);

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /**
     * When the password was last entered again in this session (POST /api/account/confirm-password).
     * Jalan's own column, unknown to Better Auth: with createdAt it says whether the session is fresh
     * enough for the account's sensitive reads.
     */
    passwordConfirmedAt: timestamp("password_confirmed_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("session_user_id_idx").on(table.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("account_user_id_idx").on(table.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("verification_identifier_idx").on(table.identifier)],
);

/**
 * Better Auth's two-factor plugin: the encrypted TOTP secret and backup codes of an account, and its
 * count of failed codes (the plugin locks the account for a while after too many).
 */
export const twoFactor = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  // One row per account: the plugin looks rows up by user id and updates the row a second "enable" finds.
  (table) => [uniqueIndex("two_factor_user_id_idx").on(table.userId)],
);

/**
 * Better Auth's rate-limit counts (its "database" storage): one row per client address and path,
 * shared by every instance and kept across restarts.
 */
export const rateLimit = pgTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  /** Milliseconds since the epoch, as Better Auth writes it. */
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});
