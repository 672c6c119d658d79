import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { roomWindow } from "#course/calls";
import { apiClient, call, pathParams } from "#web/lib/api";
import { roomPresenceQueryKey } from "#web/lib/query-keys";

/** How often a session card asks who is in the room while it is open. */
export const PRESENCE_POLL_MS = 15_000;

/** Whether the session's room is open at `now` (the card's clock). */
function openAt(session: { startsAt: string; endsAt: string }, now: number) {
  const { opensAt, closesAt } = roomWindow({ startsAt: new Date(session.startsAt), endsAt: new Date(session.endsAt) });
  return now >= opensAt.getTime() && now < closesAt.getTime();
}

/**
 * Who of a confirmed session's two sides is in its room (docs/decisions/085): asked every
 * PRESENCE_POLL_MS while the room is open, and not at all before it opens or after it closes. The
 * card that shows it is re-checked at the opening, so a page left open starts asking by itself.
 */
export function useRoomPresence(booking: { id: string; startsAt: string; endsAt: string; status: string }) {
  const [now, setNow] = useState(() => Date.now());
  const confirmed = booking.status === "confirmed";
  const open = confirmed && openAt(booking, now);
  useEffect(() => {
    if (!confirmed) return;
    const { opensAt, closesAt } = roomWindow({
      startsAt: new Date(booking.startsAt),
      endsAt: new Date(booking.endsAt),
    });
    const next = [opensAt.getTime(), closesAt.getTime()].find((at) => at > now);
    if (next === undefined || next - now > 24 * 60 * 60_000) return;
    const timer = setTimeout(() => setNow(Date.now()), next - now);
    return () => clearTimeout(timer);
  }, [confirmed, booking.startsAt, booking.endsAt, now]);
  return useQuery({
    queryKey: roomPresenceQueryKey(booking.id),
    queryFn: () => call(apiClient.calls[":bookingId"].presence.$get({ param: pathParams({ bookingId: booking.id }) })),
    enabled: open,
    refetchInterval: open ? PRESENCE_POLL_MS : false,
  });
}
