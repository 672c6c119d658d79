import { useParams } from "react-router";
import { Page } from "#web/components/page";
import { SessionRoomPage } from "#web/features/calls/components/room-page";

export function Component() {
  const bookingId = useParams().bookingId ?? "";
  return (
    <Page title="Session room" intro="Your live session: check your camera and microphone, then join.">
      <SessionRoomPage bookingId={bookingId} />
    </Page>
  );
}
