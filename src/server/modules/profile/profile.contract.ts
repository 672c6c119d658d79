import { z } from "zod";
import { MAX_NICKNAME_LENGTH } from "#course/account-rules";
import type { Profile } from "#course/profile";
import { personNameField, singleLineText } from "#course/text-fields";

/**
 * The profile API's contract: the signed-in user's name and avatar.
 *
 * GET   /api/profile         → ProfileResponse
 * PATCH /api/profile         profileUpdateSchema → ProfileResponse
 * PUT   /api/profile/avatar  multipart form AvatarUpload (a PNG or JPEG under 1 MB) → ProfileResponse
 */

export type { Profile };

/** The storage keys of an avatar's two files, from the prefix `user.avatar_path` holds. */
export const avatarKeys = (avatarPath: string) => ({
  small: `${avatarPath}-100.webp`,
  large: `${avatarPath}-200.webp`,
});

/** The URLs an account's avatar is served at (/media), or null when it has none: wherever a person shows. */
export function avatarUrls(avatarPath: string | null): Profile["avatar"] {
  if (!avatarPath) return null;
  const keys = avatarKeys(avatarPath);
  return { small: `/media/${keys.small}`, large: `/media/${keys.large}` };
}

export const profileUpdateSchema = z
  .object({
    firstName: personNameField("First name"),
    lastName: personNameField("Last name"),
    nickname: singleLineText(
      z
        .string({ error: "Nickname must be text." })
        .trim()
        .max(MAX_NICKNAME_LENGTH, `Nickname must be at most ${MAX_NICKNAME_LENGTH} characters.`),
      "Your nickname",
    )
      .nullish()
      .transform((value) => (value ? value : null)),
  })
  .strict();

export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** The avatar upload's form: one file in the field "avatar". */
export interface AvatarUpload {
  avatar: File;
}

export interface ProfileResponse {
  profile: Profile;
}

/** The profile in the account's Export My Data (account.contract.ts). */
export type ExportedProfile = Profile & { emailVerified: boolean; createdAt: Date; updatedAt: Date };
