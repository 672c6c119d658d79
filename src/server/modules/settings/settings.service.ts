import { and, eq, ne, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import {
  DAILY_GOAL_UNITS,
  type DailyGoalUnit,
  DEFAULT_DAILY_GOAL,
  isTimeZone,
  MAX_DAILY_GOAL,
} from "#course/review-rules";
import type { Database } from "#server/db/client";
import { THEMES, type Theme, user } from "#server/db/schema";
import { notFound } from "#server/http/errors";

/** An account's preferences as the API answers them. twoFactorEnabled is read-only here. */
export interface Settings {
  theme: Theme;
  emailNotifications: boolean;
  /** Turned on and off through Better Auth's /api/auth/two-factor/* endpoints, with the password. */
  twoFactorEnabled: boolean;
  /** The daily review goal: `dailyGoal` reviews, or minutes. */
  dailyGoalUnit: DailyGoalUnit;
  dailyGoal: number;
  /** Where the learner's days begin and end (an IANA name such as Asia/Kuala_Lumpur). */
  timeZone: string;
  /** The local hour (0-23) of the daily review reminder. */
  reminderHour: number;
}

const SETTABLE = '"theme", "emailNotifications", "dailyGoalUnit", "dailyGoal", "timeZone" and "reminderHour"';

/** What PATCH /api/settings accepts: any of the settings, and nothing else. */
export const settingsUpdateSchema = z
  .object(
    {
      theme: z.enum(THEMES, { error: 'Theme must be "light", "dark" or "system".' }).optional(),
      emailNotifications: z.boolean({ error: "Email notifications must be true or false." }).optional(),
      dailyGoalUnit: z
        .enum(DAILY_GOAL_UNITS, { error: 'The daily goal is counted in "reviews" or "minutes".' })
        .optional(),
      dailyGoal: z
        .number({ error: "The daily goal must be a number." })
        .int("The daily goal must be a whole number.")
        .min(1, "The daily goal must be at least 1.")
        .max(MAX_DAILY_GOAL, `The daily goal can be at most ${MAX_DAILY_GOAL}.`)
        .optional(),
      timeZone: z
        .string({ error: "The time zone must be a name such as Asia/Kuala_Lumpur." })
        .max(64, "The time zone must be a name such as Asia/Kuala_Lumpur.")
        .refine(isTimeZone, "The time zone must be a name such as Asia/Kuala_Lumpur.")
        .optional(),
      reminderHour: z
        .number({ error: "The reminder hour must be a number from 0 to 23." })
        .int("The reminder hour must be a whole hour from 0 to 23.")
        .min(0, "The reminder hour must be from 0 to 23.")
        .max(23, "The reminder hour must be from 0 to 23.")
        .optional(),
    },
    {
      error: (issue) => {
        if (issue.code === "unrecognized_keys") {
          const keys = issue.keys.map((key) => `"${key}"`).join(", ");
          return `${keys} cannot be changed here. Only ${SETTABLE} can.`;
        }
        if (issue.code === "invalid_type") return `Send the settings as a JSON object with ${SETTABLE}.`;
        return undefined;
      },
    },
  )
  .strict()
  .refine((changes) => Object.values(changes).some((value) => value !== undefined), {
    message: `Send at least one setting to change: ${SETTABLE}.`,
  });

export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

export const settingsColumns = {
  theme: user.theme,
  emailNotifications: user.emailNotifications,
  twoFactorEnabled: user.twoFactorEnabled,
  dailyGoalUnit: user.dailyGoalUnit,
  dailyGoal: user.dailyGoal,
  timeZone: user.timeZone,
  reminderHour: user.reminderHour,
};

/** Keeps the days a learner's daily goal changed (the review service), in the change's transaction. */
type RecordGoalChange = (
  tx: Transaction,
  userId: string,
  change: { before: Goal; after: Goal; timeZone: string },
) => Promise<void>;
type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
type Goal = { unit: DailyGoalUnit; amount: number };

/** The theme and notification preferences of an account (brief, change 5), stored on its user row. */
export function createSettingsService(db: Database, review: { recordGoalChange: RecordGoalChange }) {
  async function get(userId: string): Promise<Settings> {
    const [row] = await db.select(settingsColumns).from(user).where(eq(user.id, userId));
    if (!row) throw notFound("This account no longer exists.");
    return row;
  }

  return {
    get,

    /**
     * Writes only when a value differs from the stored one, so an unchanged PATCH touches nothing. A
     * goal unit that changes without an amount takes that unit's default amount (20 reviews, 10
     * minutes); the unit it already has keeps its amount. A new goal is kept with its date, so the
     * days before it are still judged by the goal they had.
     */
    async update(userId: string, requested: SettingsUpdate): Promise<Settings> {
      return db.transaction(async (tx) => {
        const [current] = await tx.select(settingsColumns).from(user).where(eq(user.id, userId)).for("update");
        if (!current) throw notFound("This account no longer exists.");
        const changes = { ...requested };
        if (changes.dailyGoalUnit !== undefined && changes.dailyGoal === undefined) {
          if (current.dailyGoalUnit !== changes.dailyGoalUnit)
            changes.dailyGoal = DEFAULT_DAILY_GOAL[changes.dailyGoalUnit];
        }
        const differs: SQL[] = [];
        for (const [name, value] of Object.entries(changes)) {
          if (value !== undefined) differs.push(ne(settingsColumns[name as keyof SettingsUpdate], value as never));
        }
        const [row] = await tx
          .update(user)
          .set(changes)
          .where(and(eq(user.id, userId), or(...differs)))
          .returning(settingsColumns);
        if (!row) return current;
        if (row.dailyGoalUnit !== current.dailyGoalUnit || row.dailyGoal !== current.dailyGoal) {
          await review.recordGoalChange(tx, userId, {
            before: { unit: current.dailyGoalUnit, amount: current.dailyGoal },
            after: { unit: row.dailyGoalUnit, amount: row.dailyGoal },
            timeZone: row.timeZone,
          });
        }
        return row;
      });
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
