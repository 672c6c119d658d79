import { lazy, Suspense } from "react";
import type { Profile } from "#web/lib/profile";
import { MENU_OPENING_KEYS, useReachFor } from "#web/lib/reach-on-demand";
import { AccountButton } from "./account-button";

// The menu (Radix with its positioning code, about 25 KB gzip) loads once the user reaches for it.
const AccountMenu = lazy(() => import("./account-menu").then((module) => ({ default: module.AccountMenu })));

/**
 * The account button, which becomes the account menu when the user reaches for it: a pointer over
 * or on it, focus, or a key. Until then it is a plain button, so a signed-in page loads and runs
 * none of the menu's code; a press before the menu has loaded opens it once it has.
 */
export function AccountMenuOnDemand({ profile }: { profile: Profile }) {
  const { reachedBy, handlers } = useReachFor({ openingKeys: MENU_OPENING_KEYS });
  const button = <AccountButton profile={profile} aria-expanded={false} {...handlers} />;
  if (!reachedBy) return button;
  return (
    <Suspense fallback={button}>
      <AccountMenu profile={profile} reachedBy={reachedBy} />
    </Suspense>
  );
}
