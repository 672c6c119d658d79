import type { ComponentProps } from "react";
import { displayName } from "#course/account-rules";
import { UserAvatar } from "#web/components/user-avatar";
import type { Profile } from "#web/lib/profile";

/** The header's account button: the user's avatar, named for screen readers. It opens the account menu. */
export function AccountButton({ profile, ...props }: { profile: Profile } & ComponentProps<"button">) {
  return (
    <button
      type="button"
      aria-label={`Account menu for ${displayName(profile)}`}
      aria-haspopup="menu"
      className="rounded-full"
      {...props}
    >
      <UserAvatar profile={profile} size="small" />
    </button>
  );
}
