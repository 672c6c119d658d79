import { type KeyboardEvent, lazy, Suspense, useState } from "react";
import type { Profile } from "#web/lib/profile";
import { AccountButton } from "./account-button";
import type { ReachedBy } from "./account-menu";

// The menu (Radix with its positioning code, about 25 KB gzip) loads once the user reaches for it.
const AccountMenu = lazy(() => import("./account-menu").then((module) => ({ default: module.AccountMenu })));

const OPENING_KEYS = ["Enter", " ", "ArrowDown"];

/**
 * The account button, which becomes the account menu when the user reaches for it: a pointer over
 * or on it, focus, or a key. Until then it is a plain button, so a signed-in page loads and runs
 * none of the menu's code; a press before the menu has loaded opens it once it has.
 */
export function AccountMenuOnDemand({ profile }: { profile: Profile }) {
  const [reachedBy, setReachedBy] = useState<ReachedBy | null>(null);
  const reach = (how: ReachedBy) => setReachedBy((current) => (current === "press" ? current : how));
  const button = (
    <AccountButton
      profile={profile}
      aria-expanded={false}
      onPointerEnter={() => reach("pointer")}
      onFocus={() => reach("focus")}
      onPointerDown={() => reach("press")}
      onKeyDown={(event: KeyboardEvent) => {
        if (!OPENING_KEYS.includes(event.key)) return;
        event.preventDefault();
        reach("press");
      }}
    />
  );
  if (!reachedBy) return button;
  return (
    <Suspense fallback={button}>
      <AccountMenu profile={profile} reachedBy={reachedBy} />
    </Suspense>
  );
}
