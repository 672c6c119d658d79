import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { MENU_OPENING_KEYS, useReachFor } from "#web/lib/reach-on-demand";
import type { NoticesMenu as Menu } from "./notices";
import { NoticesButton, noticesQuery } from "./notices-button";

// The menu (Radix with its positioning code, about 25 KB gzip) loads once the user reaches for the bell.
const loadMenu = () => import("./notices");

/**
 * The header's bell, which becomes the notices menu when the user reaches for it (as the account
 * menu does, AccountMenuOnDemand): until then a plain button with the number unread, so a
 * signed-in page loads none of the menu's code; it stays, focused, while the menu loads, and a press
 * before then opens the menu once it has.
 */
export function NoticesOnDemand() {
  const notices = useQuery(noticesQuery);
  const [NoticesMenu, setNoticesMenu] = useState<typeof Menu | null>(null);
  const { reachedBy, handlers } = useReachFor({
    openingKeys: MENU_OPENING_KEYS,
    onReach: () =>
      loadMenu().then(
        (module) => setNoticesMenu(() => module.NoticesMenu),
        () => {},
      ),
  });
  if (NoticesMenu && reachedBy) return <NoticesMenu reachedBy={reachedBy} />;
  return <NoticesButton unread={notices.data?.unread ?? 0} aria-expanded={false} {...handlers} />;
}
