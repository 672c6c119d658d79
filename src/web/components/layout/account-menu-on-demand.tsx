import { useState } from "react";
import type { Profile } from "#web/lib/profile";
import { MENU_OPENING_KEYS, useReachFor } from "#web/lib/reach-on-demand";
import { AccountButton } from "./account-button";
import type { AccountMenu as Menu } from "./account-menu";

// The menu (Radix with its positioning code, about 25 KB gzip) loads once the user reaches for it.
const loadMenu = () => import("./account-menu");

/**
 * The account button, which becomes the account menu when the user reaches for it: a pointer over
 * or on it, focus, or a key. Until then it is a plain button, so a signed-in page loads and runs
 * none of the menu's code; it stays, focused, while the menu loads (no moment with the focus on
 * nothing), and a press before then opens the menu once it has.
 */
export function AccountMenuOnDemand({ profile }: { profile: Profile }) {
  const [AccountMenu, setAccountMenu] = useState<typeof Menu | null>(null);
  const { reachedBy, handlers } = useReachFor({
    openingKeys: MENU_OPENING_KEYS,
    onReach: () =>
      loadMenu().then(
        (module) => setAccountMenu(() => module.AccountMenu),
        () => {},
      ),
  });
  if (AccountMenu && reachedBy) return <AccountMenu profile={profile} reachedBy={reachedBy} />;
  return <AccountButton profile={profile} aria-expanded={false} {...handlers} />;
}
