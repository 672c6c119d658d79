import type { Database } from "#server/db/client";
import type { Job } from "#server/modules/module";
import { ORPHAN_SWEEP_EVERY_MS, sweepOrphans } from "#server/storage/orphan-sweep";
import type { FileStorage } from "#server/storage/storage";
import { createProfileRepository } from "./profile.repository";

/** An avatar file's key: avatars/<user id>-<content hash>-<size>.webp (profile.service.ts). */
const AVATAR_KEY = /^(avatars\/(.+)-[0-9a-f]{16})-(100|200)\.webp$/;

/**
 * The profile module's background work: every ten minutes, the avatar files that no account
 * holds and are older than a quarter of an hour are removed. An avatar's files are put before the
 * account points at them and removed after it lets go; a crash or a failed removal in between,
 * in PostgreSQL or in a bucket, leaves files this finds.
 */
export function orphanAvatarsJob(storage: FileStorage, db: Database, now = () => new Date()): Job {
  const profiles = createProfileRepository(db);
  async function kept(keys: string[]): Promise<Set<string>> {
    const parsed = keys.flatMap((key) => {
      const match = AVATAR_KEY.exec(key);
      return match ? [{ key, avatarPath: match[1]!, userId: match[2]! }] : [];
    });
    const held = await profiles.avatarPathsOf([...new Set(parsed.map((file) => file.userId))]);
    // A key the server would not have made is kept: it is not this sweep's to judge.
    const unknown = keys.filter((key) => !AVATAR_KEY.test(key));
    return new Set([...unknown, ...parsed.filter((file) => held.has(file.avatarPath)).map((file) => file.key)]);
  }
  return {
    name: "avatars' orphan files swept",
    everyMs: ORPHAN_SWEEP_EVERY_MS,
    run: () => sweepOrphans(storage, { prefix: "avatars/", kept, now: now() }),
  };
}
