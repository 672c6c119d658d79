import { createHash } from "node:crypto";
import type { Profile } from "#course/profile";
import type { Database, Queryable } from "#server/db/client";
import { notFound } from "#server/http/errors";
import type { FileStorage } from "#server/storage/storage";
import { type EncodedAvatar, encodeAvatar } from "./avatar-image";
import { avatarKeys, avatarUrls, type ExportedProfile, type ProfileUpdate } from "./profile.contract";
import { createProfileRepository, type ProfileRepository } from "./profile.repository";

const AVATAR_PREFIX = "avatars/";

/** Hex digits of the content hash in an avatar's names: 64 bits, so two pictures of one account practically never share them. */
const HASH_LENGTH = 16;

/**
 * The SHA-256 of both files, shortened: the names change exactly when the picture does, which is what
 * lets /media/avatars answer with an immutable cache.
 */
function contentHash(encoded: EncodedAvatar): string {
  return createHash("sha256").update(encoded.small).update(encoded.large).digest("hex").slice(0, HASH_LENGTH);
}

async function removeAvatarFiles(storage: FileStorage, avatarPath: string): Promise<void> {
  const keys = avatarKeys(avatarPath);
  await Promise.all([storage.remove(keys.small), storage.remove(keys.large)]);
}

type ProfileRow = NonNullable<Awaited<ReturnType<ProfileRepository["find"]>>>;

function toProfile({ avatarPath, ...row }: ProfileRow): Profile {
  return { ...row, avatar: avatarUrls(avatarPath) };
}

const gone = () => notFound("This account no longer exists.");

export function createProfileService(db: Database, storage: FileStorage) {
  const profiles = createProfileRepository(db);

  return {
    async get(userId: string): Promise<Profile> {
      const row = await profiles.find(userId);
      if (!row) throw gone();
      return toProfile(row);
    },

    async update(userId: string, changes: ProfileUpdate): Promise<Profile> {
      const row = await profiles.setNames(userId, changes);
      if (!row) throw gone();
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
      const replaced = await profiles.replaceAvatarPath(userId, avatarPath);
      if (!replaced) {
        await removeAvatarFiles(storage, avatarPath);
        throw gone();
      }
      if (replaced.previous && replaced.previous !== avatarPath) await removeAvatarFiles(storage, replaced.previous);
      return toProfile(replaced.row);
    },

    /** The profile part of Export My Data; 404 when the account is gone. */
    async exportFor(userId: string): Promise<ExportedProfile> {
      const row = await profiles.exportRow(userId);
      if (!row) throw gone();
      const { avatarPath, ...profile } = row;
      return { ...profile, avatar: avatarUrls(avatarPath) };
    },

    /** The account's avatar path (the prefix of its stored files), in the caller's transaction if given. */
    avatarPathOf: (userId: string, q: Queryable = db) => profiles.avatarPathOf(userId, q),

    avatarUrls,

    /** Removes an avatar's stored files: after the transaction that let go of them has committed. */
    removeAvatarFiles: (avatarPath: string) => removeAvatarFiles(storage, avatarPath),
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
