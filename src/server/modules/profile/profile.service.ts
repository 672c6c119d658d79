import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Profile } from "#course/profile";
import type { Database } from "#server/db/client";
import { user } from "#server/db/schema";
import { notFound } from "#server/http/errors";
import type { FileStorage } from "#server/storage/storage";
import { type EncodedAvatar, encodeAvatar } from "./avatar-image";

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

/** Hex digits of the content hash in an avatar's names: 64 bits, so two pictures of one account practically never share them. */
const HASH_LENGTH = 16;

/**
 * The SHA-256 of both files, shortened: the names change exactly when the picture does, which is what
 * lets /media/avatars answer with an immutable cache.
 */
function contentHash(encoded: EncodedAvatar): string {
  return createHash("sha256").update(encoded.small).update(encoded.large).digest("hex").slice(0, HASH_LENGTH);
}

export async function removeAvatarFiles(storage: FileStorage, avatarPath: string): Promise<void> {
  const keys = avatarKeys(avatarPath);
  await Promise.all([storage.remove(keys.small), storage.remove(keys.large)]);
}

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

    /**
     * Stores the re-encoded avatar under names made of its content hash, points the account at it,
     * then removes the files it replaced. The same picture again keeps its names and its files.
     */
    async replaceAvatar(userId: string, upload: Uint8Array): Promise<Profile> {
      const encoded = await encodeAvatar(upload);
      const avatarPath = `${AVATAR_PREFIX}${userId}-${contentHash(encoded)}`;
      const keys = avatarKeys(avatarPath);
      await storage.put(keys.small, encoded.small);
      await storage.put(keys.large, encoded.large);
      // The replaced path is read under the row's lock, so of two uploads at once each removes
      // exactly the files it replaced.
      const replaced = await db.transaction(async (tx) => {
        const [old] = await tx
          .select({ avatarPath: user.avatarPath })
          .from(user)
          .where(eq(user.id, userId))
          .for("update");
        if (!old) return null;
        const [row] = await tx.update(user).set({ avatarPath }).where(eq(user.id, userId)).returning();
        return { row: row!, previous: old.avatarPath };
      });
      if (!replaced) {
        await removeAvatarFiles(storage, avatarPath);
        throw notFound("This account no longer exists.");
      }
      if (replaced.previous && replaced.previous !== avatarPath) await removeAvatarFiles(storage, replaced.previous);
      return toProfile(replaced.row);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
