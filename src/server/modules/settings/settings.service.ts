import { and, eq, ne, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Database } from "../../db/client";
import { THEMES, type Theme, user } from "../../db/schema";
import { notFound } from "../../http/errors";

/** An account's preferences as the API answers them. twoFactorEnabled is read-only here. */
export interface Settings {
  theme: Theme;
  emailNotifications: boolean;
  /** Turned on and off through Better Auth's /api/auth/two-factor/* endpoints, with the password. */
  twoFactorEnabled: boolean;
}

const SETTABLE = '"theme" and "emailNotifications"';

/** What PATCH /api/settings accepts: either setting or both, and nothing else. */
export const settingsUpdateSchema = z
  .object(
    {
      theme: z.enum(THEMES, { error: 'Theme must be "light", "dark" or "system".' }).optional(),
      emailNotifications: z.boolean({ error: "Email notifications must be true or false." }).optional(),
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
  .refine((changes) => changes.theme !== undefined || changes.emailNotifications !== undefined, {
    message: `Send at least one setting to change: ${SETTABLE}.`,
  });

export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

export const settingsColumns = {
  theme: user.theme,
  emailNotifications: user.emailNotifications,
  twoFactorEnabled: user.twoFactorEnabled,
};

/** The theme and notification preferences of an account (brief, change 5), stored on its user row. */
export function createSettingsService(db: Database) {
  async function get(userId: string): Promise<Settings> {
    const [row] = await db.select(settingsColumns).from(user).where(eq(user.id, userId));
    if (!row) throw notFound("This account no longer exists.");
    return row;
  }

  return {
    get,

    /** Writes only when a value differs from the stored one, so an unchanged PATCH touches nothing. */
    async update(userId: string, changes: SettingsUpdate): Promise<Settings> {
      const differs: SQL[] = [];
      if (changes.theme !== undefined) differs.push(ne(user.theme, changes.theme));
      if (changes.emailNotifications !== undefined) {
        differs.push(ne(user.emailNotifications, changes.emailNotifications));
      }
      const [row] = await db
        .update(user)
        .set(changes)
        .where(and(eq(user.id, userId), or(...differs)))
        .returning(settingsColumns);
      return row ?? get(userId);
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
