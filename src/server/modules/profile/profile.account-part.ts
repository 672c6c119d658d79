import type { AccountPart } from "#server/modules/module";
import type { ProfileService } from "./profile.service";

/**
 * The profile's part of an account: the export's profile (404 when the account is gone); and, in a
 * deletion, the avatar's path read in its transaction and the avatar's stored files removed once it
 * committed (a failure then leaves unreachable files, never an account without its picture).
 */
export function profileAccountPart(profile: ProfileService): AccountPart {
  return {
    export: { profile: ({ userId }) => profile.exportFor(userId) },
    async close(userId) {
      let avatarPath: string | null = null;
      return {
        async inTransaction(tx) {
          avatarPath = await profile.avatarPathOf(userId, tx);
        },
        async afterCommit() {
          if (avatarPath) await profile.removeAvatarFiles(avatarPath);
        },
      };
    },
  };
}
