import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Profile } from "../../../course/profile";
import type { Database } from "../../db/client";
import { user } from "../../db/schema";
import { notFound } from "../../http/errors";
import type { FileStorage } from "../../storage/storage";
import { encodeAvatar } from "./avatar-image";

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

const AVATAR_PREFIX = "avatars/";
/** The storage keys of an avatar's two files, from the prefix `user.avatar_path` holds. */
export const avatarKeys = (avatarPath: string) => ({
  small: `${avatarPath}-100.webp`,
  large: `${avatarPath}-200.webp`,
});
const mediaUrl = (key: string) => `/media/${key}`;

/** The URLs of an account's avatar, or null when it has none. */
export function avatarUrls(avatarPath: string | null): Profile["avatar"] {
  if (!avatarPath) return null;
  const keys = avatarKeys(avatarPath);
  return { small: mediaUrl(keys.small), large: mediaUrl(keys.large) };
}

type UserRow = typeof user.$inferSelect;

function toProfile(row: UserRow): Profile {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    nickname: row.nickname,
    role: row.role,
    avatar: avatarUrls(row.avatarPath),
  };
}

export function createProfileService(db: Database, storage: FileStorage) {
  async function findUser(userId: string): Promise<UserRow> {
    const [row] = await db.select().from(user).where(eq(user.id, userId));
    if (!row) throw notFound("This account no longer exists.");
    return row;
  }

  return {
    async get(userId: string): Promise<Profile> {
      return toProfile(await findUser(userId));
    },

    async update(userId: string, changes: ProfileUpdate): Promise<Profile> {
      const [row] = await db
        .update(user)
        .set({ ...changes, name: `${changes.firstName} ${changes.lastName}` })
        .where(eq(user.id, userId))
        .returning();
      if (!row) throw notFound("This account no longer exists.");
      return toProfile(row);
    },

    /** Stores the re-encoded avatar under a new server-made name, then removes the old files. */
    async replaceAvatar(userId: string, upload: Uint8Array): Promise<Profile> {
      const encoded = await encodeAvatar(upload);
      const previous = (await findUser(userId)).avatarPath;
      const avatarPath = `${AVATAR_PREFIX}${userId}-${Date.now()}`;
      const keys = avatarKeys(avatarPath);
      await storage.put(keys.small, encoded.small);
      await storage.put(keys.large, encoded.large);
      const [row] = await db.update(user).set({ avatarPath }).where(eq(user.id, userId)).returning();
      if (!row) {
        await Promise.all([storage.remove(keys.small), storage.remove(keys.large)]);
        throw notFound("This account no longer exists.");
      }
      if (previous && previous !== avatarPath) {
        const old = avatarKeys(previous);
        await Promise.all([storage.remove(old.small), storage.remove(old.large)]);
      }
      return toProfile(row);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
