import { useQuery } from "@tanstack/react-query";
import { apiClient, call, pathParams } from "#web/lib/api";
import { callRoomQueryKey } from "#web/lib/query-keys";

/** A booking's session room: the session, when the room is open, the ICE servers and the chat so far. */
export function useCallRoom(bookingId: string) {
  return useQuery({
    queryKey: callRoomQueryKey(bookingId),
    queryFn: () => call(apiClient.calls[":bookingId"].$get({ param: pathParams({ bookingId }) })),
    // The TURN credentials last until the room closes: read once it is open, they hold for the call.
    staleTime: 60 * 60_000,
  });
}

/** The room's WebSocket address, on the page's own host (the server checks the page's origin). */
export function roomSocketUrl(bookingId: string): string {
  const url = new URL(`/api/calls/${encodeURIComponent(bookingId)}/signal`, window.location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return url.toString();
}
