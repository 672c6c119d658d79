import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { MENU_OPENING_KEYS, useReachFor } from "#web/lib/reach-on-demand";
import { NoticesButton, noticesQuery } from "./notices-button";

// The menu (Radix with its positioning code, about 25 KB gzip) loads once the user reaches for the bell.
const NoticesMenu = lazy(() => import("./notices").then((module) => ({ default: module.NoticesMenu })));

/**
 * The header's bell, which becomes the notices menu when the user reaches for it (as the account
 * menu does, AccountMenuOnDemand): until then a plain button with the number unread, so a
 * signed-in page loads none of the menu's code; a press before the menu has loaded opens it once it has.
 */
export function NoticesOnDemand() {
  const notices = useQuery(noticesQuery);
  const { reachedBy, handlers } = useReachFor({ openingKeys: MENU_OPENING_KEYS });
  const button = <NoticesButton unread={notices.data?.unread ?? 0} aria-expanded={false} {...handlers} />;
  if (!reachedBy) return button;
  return (
    <Suspense fallback={button}>
      <NoticesMenu reachedBy={reachedBy} />
    </Suspense>
  );
}
