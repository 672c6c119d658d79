import { queryOptions } from "@tanstack/react-query";
import { Bell } from "lucide-react";
import type { ComponentProps } from "react";
import { Button } from "#web/components/ui/button";
import { apiClient, call } from "#web/lib/api";
import { noticesQueryKey } from "#web/lib/query-keys";

/** The signed-in user's notices: read by the bell, and by its menu once opened. */
export const noticesQuery = queryOptions({
  queryKey: noticesQueryKey,
  queryFn: () => call(apiClient.speaking.notices.$get()),
  refetchOnWindowFocus: true,
  staleTime: 60_000,
});

const shown = (count: number) => (count > 9 ? "9+" : String(count));

/** The header's bell, with the number of notices unread. It opens the notices menu. */
export function NoticesButton({ unread, ...props }: { unread: number } & ComponentProps<"button">) {
  return (
    <Button
      variant="ghost"
      size="icon"
      className="relative"
      aria-label={unread > 0 ? `Notices, ${unread} unread` : "Notices"}
      aria-haspopup="menu"
      {...props}
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
  );
}
