import { z } from "zod";
import type { Profile } from "#course/profile";

/**
 * The profile API's contract: the signed-in user's name and avatar.
 *
 * GET   /api/profile         → ProfileResponse
 * PATCH /api/profile         profileUpdateSchema → ProfileResponse
 * PUT   /api/profile/avatar  multipart form AvatarUpload (a PNG or JPEG under 1 MB) → ProfileResponse
 */

export type { Profile };

const nameField = (label: string) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(100, `${label} must be at most 100 characters.`);

export const profileUpdateSchema = z
  .object({
    firstName: nameField("First name"),
    lastName: nameField("Last name"),
    nickname: z
      .string({ error: "Nickname must be text." })
      .trim()
      .max(50, "Nickname must be at most 50 characters.")
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
