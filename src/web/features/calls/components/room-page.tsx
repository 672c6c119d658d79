import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { Link } from "react-router";
import { ROOM_OPENS_BEFORE_MS } from "#course/calls";
import { paths } from "#web/config/paths";
import { useCallRoom } from "#web/features/calls/api/room";
import { CallRoom } from "#web/features/calls/components/call-room";
import { DeviceCheck } from "#web/features/calls/components/device-check";
import { SessionClock } from "#web/features/calls/components/session-clock";
import { SessionRecordPanel } from "#web/features/calls/components/session-record";
import { ApiError } from "#web/lib/api";
import { callRoomQueryKey } from "#web/lib/query-keys";
import { momentIn, zoneName } from "#web/lib/session-time";

/**
 * A booked session's room: closed until 5 minutes before the session (it opens by itself then),
 * then the device check, then the call. Leaving ends the user's camera and microphone.
 */
export function SessionRoomPage({ bookingId }: { bookingId: string }) {
  const room = useCallRoom(bookingId);
  const queryClient = useQueryClient();
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [speaker, setSpeaker] = useState<string | null>(null);
  const [left, setLeft] = useState(false);
  const data = room.data;

  // A room that opens while the page is open: read again at that moment.
  useEffect(() => {
    if (!data || data.open) return;
    const wait = new Date(data.opensAt).getTime() - Date.now();
    if (wait <= 0 || wait > 24 * 60 * 60_000) return;
    const timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: callRoomQueryKey(bookingId) }), wait);
    return () => clearTimeout(timer);
  }, [data, bookingId, queryClient]);

  useEffect(
    () => () => {
      for (const track of stream?.getTracks() ?? []) track.stop();
    },
    [stream],
  );

  if (room.isPending) return <p role="status">Opening the room…</p>;
  if (room.isError) {
    const missing = room.error instanceof ApiError && room.error.status === 404;
    return (
      <p role="alert">
        {missing ? "There is no such session among yours." : "The room could not be opened. Try again in a moment."}{" "}
        <Link to={paths.progress} className="underline">
          Go to My Journey
        </Link>
      </p>
    );
  }
  const { booking } = room.data;
  if (left) {
    return (
      <div className="space-y-3">
        <p role="status">You left the session.</p>
        <button type="button" className="underline" onClick={() => setLeft(false)}>
          Join again
        </button>
      </div>
    );
  }
  const over = Date.now() >= new Date(room.data.closesAt).getTime();
  if (!room.data.open && booking.status === "confirmed" && (over || room.data.record.endedAt)) {
    // The room has closed: what the session left stays here, and its tutor may still finish the record.
    return <SessionRecordPanel room={room.data} />;
  }
  if (!room.data.open) {
    return (
      <p role="status">
        {booking.status !== "confirmed" || over
          ? "This session is over or was cancelled: its room is closed."
          : `The room opens ${ROOM_OPENS_BEFORE_MS / 60_000} minutes before the session, at ${momentIn(room.data.opensAt, room.data.timeZone)} (${zoneName(room.data.timeZone)}). This page opens it by itself.`}
      </p>
    );
  }
  return (
    <>
      <SessionClock room={room.data} />
      {booking.youAre === "admin" ? (
        <CallRoom room={room.data} stream={null} speaker={null} onLeave={() => setLeft(true)} />
      ) : !stream ? (
        <DeviceCheck
          onJoin={(joined, chosen) => {
            setSpeaker(chosen);
            setStream(joined);
          }}
        />
      ) : (
        <CallRoom
          room={room.data}
          stream={stream}
          speaker={speaker}
          onLeave={() => {
            for (const track of stream.getTracks()) track.stop();
            setStream(null);
            setLeft(true);
          }}
        />
      )}
    </>
  );
}
