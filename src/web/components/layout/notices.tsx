import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Bell } from "lucide-react";
import { Link } from "react-router";
import { Button } from "#web/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "#web/components/ui/dropdown-menu";
import { apiClient, call } from "#web/lib/api";
import { noticesQueryKey } from "#web/lib/query-keys";

const noticesQuery = queryOptions({
  queryKey: noticesQueryKey,
  queryFn: () => call(apiClient.speaking.notices.$get()),
  refetchOnWindowFocus: true,
  staleTime: 60_000,
});

const shown = (count: number) => (count > 9 ? "9+" : String(count));

/**
 * The signed-in user's notices in the header: a bell with the number unread (a tutor has heard the
 * takes they sent), a menu of the newest, each leading to its day's live session. Opening the menu
 * marks them read. Loaded only for signed-in users.
 */
export function NoticesMenu() {
  const queryClient = useQueryClient();
  const notices = useQuery(noticesQuery);
  const read = useMutation({
    mutationFn: () => call(apiClient.speaking.notices.read.$post()),
    onSuccess: (answer) => queryClient.setQueryData(noticesQueryKey, answer),
  });
  const unread = notices.data?.unread ?? 0;
  return (
    <DropdownMenu
      onOpenChange={(open) => {
        if (open && unread > 0) read.mutate();
      }}
    >
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={unread > 0 ? `Notices, ${unread} unread` : "Notices"}
        >
          <Bell aria-hidden="true" />
          {unread > 0 && (
            <span
              aria-hidden="true"
              className="absolute -top-0.5 -right-0.5 inline-flex h-4 min-w-4 items-center justify-center rounded-full bg-primary px-1 text-[10px] font-semibold text-primary-foreground"
            >
              {shown(unread)}
            </span>
          )}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-72">
        <DropdownMenuLabel>Notices</DropdownMenuLabel>
        {(notices.data?.notices ?? []).length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">
            Nothing new. When a tutor hears your recordings, it shows here.
          </p>
        ) : (
          notices.data!.notices.map((notice) => (
            <DropdownMenuItem key={notice.id} asChild>
              <Link to={`/${notice.chapterId}/${notice.dayId}/live-session`} className="grid gap-0.5">
                <span className={notice.readAt ? undefined : "font-semibold"}>
                  A tutor heard your Day {notice.dayNumber} recordings
                </span>
                <span className="text-xs text-muted-foreground">{notice.title}: see the ratings</span>
              </Link>
            </DropdownMenuItem>
          ))
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
