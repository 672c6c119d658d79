import { useParams } from "react-router";
import { Page } from "#web/components/page";
import { SessionRoomPage } from "#web/features/calls/components/room-page";

export function Component() {
  const bookingId = useParams().bookingId ?? "";
  return (
    <Page title="Session room">
      <SessionRoomPage bookingId={bookingId} />
    </Page>
  );
}
