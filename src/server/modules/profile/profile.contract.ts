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
