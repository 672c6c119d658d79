import { z } from "zod";
import {
  canonicalTimeZone,
  DAILY_GOAL_UNITS,
  type DailyGoalUnit,
  isTimeZone,
  MAX_DAILY_GOAL,
  MAX_NEW_CARDS_PER_DAY,
} from "#course/review-rules";
import { THEMES, type Theme } from "#course/themes";

/** The settings API's contract: GET /api/settings and PATCH /api/settings, each answering { settings }. */

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
  /** How many cards met but never reviewed may enter the review's due pile per local day (0-100). */
  newCardsPerDay: number;
}

const SETTABLE =
  '"theme", "emailNotifications", "dailyGoalUnit", "dailyGoal", "timeZone", "reminderHour" and "newCardsPerDay"';
const NEW_CARDS_RANGE = `New cards a day must be a whole number from 0 to ${MAX_NEW_CARDS_PER_DAY}.`;

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
        // Stored in the runtime's own spelling only ("asia/kuala_lumpur" is kept as "Asia/Kuala_Lumpur").
        .transform((timeZone) => canonicalTimeZone(timeZone)!)
        .optional(),
      reminderHour: z
        .number({ error: "The reminder hour must be a number from 0 to 23." })
        .int("The reminder hour must be a whole hour from 0 to 23.")
        .min(0, "The reminder hour must be from 0 to 23.")
        .max(23, "The reminder hour must be from 0 to 23.")
        .optional(),
      newCardsPerDay: z
        .number({ error: NEW_CARDS_RANGE })
        .int(NEW_CARDS_RANGE)
        .min(0, NEW_CARDS_RANGE)
        .max(MAX_NEW_CARDS_PER_DAY, NEW_CARDS_RANGE)
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

/** What GET and PATCH /api/settings answer. */
export interface SettingsResponse {
  settings: Settings;
}
