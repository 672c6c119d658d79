import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Link } from "react-router";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { apiClient, call } from "#web/lib/api";
import { noticesQueryKey } from "#web/lib/query-keys";
import { type ReachedBy, useFocusKept } from "#web/lib/reach-on-demand";
import { NoticesButton, noticesQuery } from "./notices-button";

/**
 * The signed-in user's notices in the header: a menu of the newest (a tutor has heard the takes
 * they sent), each leading to its day's live session, loaded when the user reaches for the bell
 * (NoticesOnDemand). Opening the menu marks them read.
 */
export function NoticesMenu({ reachedBy }: { reachedBy: ReachedBy }) {
  const queryClient = useQueryClient();
  const notices = useQuery(noticesQuery);
  const read = useMutation({
    mutationFn: () => call(apiClient.speaking.notices.read.$post()),
    onSuccess: (answer) => queryClient.setQueryData(noticesQueryKey, answer),
  });
  const unread = notices.data?.unread ?? 0;
  const trigger = useRef<HTMLButtonElement>(null);
  useFocusKept(trigger, reachedBy);
  const openedByPress = reachedBy === "press";
  // A press opened the menu as it loaded: what it shows is read, as when it opens later.
  const markRead = read.mutate;
  const readOnOpen = useRef(openedByPress);
  useEffect(() => {
    if (readOnOpen.current && unread > 0) {
      readOnOpen.current = false;
      markRead();
    }
  }, [unread, markRead]);
  return (
    <DropdownMenu
      defaultOpen={openedByPress}
      onOpenChange={(open) => {
        if (open && unread > 0) read.mutate();
      }}
    >
      <DropdownMenuTrigger asChild>
        <NoticesButton ref={trigger} unread={unread} />
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-72">
        <DropdownMenuLabel>Notices</DropdownMenuLabel>
        {(notices.data?.notices ?? []).length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">
            Nothing new. When a tutor hears your recordings or rates your session, it shows here.
          </p>
        ) : (
          notices.data!.notices.map((notice) => (
            <DropdownMenuItem key={notice.id} asChild>
              <Link to={`/${notice.chapterId}/${notice.dayId}/live-session`} className="grid gap-0.5">
                <span className={notice.readAt ? undefined : "font-semibold"}>
                  {notice.kind === "session-rated"
                    ? `Your tutor rated your Day ${notice.dayNumber} session`
                    : `A tutor heard your Day ${notice.dayNumber} recordings`}
                </span>
                <span className="text-xs text-muted-foreground">
                  {notice.kind === "session-rated" ? "See the ratings and notes" : `${notice.title}: see the ratings`}
                </span>
              </Link>
            </DropdownMenuItem>
          ))
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
