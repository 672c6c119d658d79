import { Mic, MicOff, PhoneOff, PictureInPicture2, Video, VideoOff } from "lucide-react";
import { type RefObject, useEffect, useRef, useState } from "react";
import type { CallRoom as Room } from "#server/modules/calls/calls.contract";
import { Button } from "#web/components/ui/button";
import { type CallState, useCall } from "#web/features/calls/call-connection";
import { CallChat } from "#web/features/calls/components/call-chat";
import { CallQuality } from "#web/features/calls/components/call-quality";
import { SessionRecordPanel } from "#web/features/calls/components/session-record";
import { playThrough } from "#web/features/calls/test-tone";
import { cn } from "#web/lib/cn";

const STATE_TEXT = (other: string): Record<CallState, string> => ({
  waiting: `Waiting for ${other} to join…`,
  connecting: `Connecting to ${other}…`,
  connected: `Connected with ${other}`,
  reconnecting: "Connection lost: reconnecting…",
  replaced: "You opened this room in another tab or window, so it has left this one.",
  closed: "The session's room has closed.",
});

/**
 * The call: the other side's video (or their name, with sound only), the user's own picture, mute
 * and camera buttons, the network's quality each way, the chat, and the session's record (the cue
 * cards; on the tutor's side their ratings, notes and the learner's brief). The WebSocket carries
 * the negotiation, the chat and the session's end; when the other side arrives (again, after a
 * reload) a fresh peer connection is negotiated. An Admin (no `stream`) follows the chat and the
 * record without joining the call. `speaker`: the speakers chosen in the device check.
 */
export function CallRoom({
  room,
  stream,
  speaker,
  onLeave,
}: {
  room: Room;
  stream: MediaStream | null;
  speaker: string | null;
  onLeave: () => void;
}) {
  const { booking } = room;
  const call = useCall(room, stream);

  const chatPanel = (
    <CallChat
      messages={call.chat}
      names={Object.fromEntries(
        [booking.learner, booking.tutor].flatMap((side) => (side.id === null ? [] : [[side.id, side.name]])),
      )}
      timeZone={room.timeZone}
      problem={call.problem}
      send={call.sendChat}
    />
  );

  if (!stream) {
    return (
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <div className="space-y-4">
          <p role="status">
            The call is between {booking.learner.name} and {booking.tutor.name}; as an administrator you follow its chat
            and record.
          </p>
          <SessionRecordPanel room={room} />
        </div>
        {chatPanel}
      </div>
    );
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
      <CallView room={room} stream={stream} speaker={speaker} call={call} onLeave={onLeave} />
      {chatPanel}
    </div>
  );
}

/**
 * Whether the video's place on the page has scrolled out of view: the video then floats, small, in
 * a corner, so it stays in sight while the tutor rates lines further down.
 */
function useScrolledAway(place: RefObject<HTMLElement | null>) {
  const [away, setAway] = useState(false);
  useEffect(() => {
    const element = place.current;
    if (!element || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(([entry]) => setAway(entry ? !entry.isIntersecting : false), {
      threshold: 0.25,
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [place]);
  return away;
}

/** The call itself: the other side's video, the user's own picture, mute and camera, leaving, and the session's record. */
function CallView({
  room,
  stream,
  speaker,
  call,
  onLeave,
}: {
  room: Room;
  stream: MediaStream;
  speaker: string | null;
  call: ReturnType<typeof useCall>;
  onLeave: () => void;
}) {
  const { booking } = room;
  const other = booking.youAre === "tutor" ? booking.learner : booking.tutor;
  const { state, closedBecause, remote } = call;
  const [muted, setMuted] = useState(false);
  const [cameraOff, setCameraOff] = useState(false);
  const localVideo = useRef<HTMLVideoElement>(null);
  const remoteVideo = useRef<HTMLVideoElement>(null);
  const place = useRef<HTMLDivElement>(null);
  const floating = useScrolledAway(place);
  const hasVideo = stream.getVideoTracks().length > 0;
  const pictureInPicture = typeof document !== "undefined" && document.pictureInPictureEnabled;

  useEffect(() => {
    if (localVideo.current) localVideo.current.srcObject = stream;
  }, [stream]);
  useEffect(() => {
    if (remoteVideo.current) remoteVideo.current.srcObject = remote;
  }, [remote]);
  useEffect(() => {
    if (remoteVideo.current) void playThrough(remoteVideo.current, speaker).catch(() => undefined);
  }, [speaker]);

  const toggleMute = () => {
    for (const track of stream.getAudioTracks()) track.enabled = muted;
    setMuted(!muted);
  };
  const toggleCamera = () => {
    for (const track of stream.getVideoTracks()) track.enabled = cameraOff;
    setCameraOff(!cameraOff);
  };

  return (
    <section aria-label="Call" className="space-y-3">
      <p role="status" className="font-medium">
        {state === "closed" && closedBecause ? closedBecause : STATE_TEXT(other.name)[state]}
      </p>
      <CallQuality connection={call.connection} other={other.name} />
      {/* The video's place keeps its size while the video floats, so nothing below it moves. */}
      <div ref={place} className="aspect-video w-full">
        <div
          className={cn(
            "overflow-hidden rounded-xl bg-black",
            floating ? "fixed bottom-4 right-4 z-40 w-72 shadow-xl ring-1 ring-white/30" : "relative h-full w-full",
          )}
        >
          {/* biome-ignore lint/a11y/useMediaCaption: a live call has no captions to give. */}
          <video
            ref={remoteVideo}
            autoPlay
            playsInline
            aria-label={`${other.name}'s camera`}
            className="aspect-video w-full object-cover"
          />
          {hasVideo && (
            <video
              ref={localVideo}
              autoPlay
              muted
              playsInline
              aria-label="Your camera"
              className="absolute bottom-3 right-3 w-1/4 rounded-md border border-white/40 object-cover"
            />
          )}
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" aria-pressed={muted} onClick={toggleMute}>
          {muted ? <MicOff aria-hidden="true" /> : <Mic aria-hidden="true" />}
          {muted ? "Unmute" : "Mute"}
        </Button>
        {hasVideo && (
          <Button variant="outline" aria-pressed={cameraOff} onClick={toggleCamera}>
            {cameraOff ? <VideoOff aria-hidden="true" /> : <Video aria-hidden="true" />}
            {cameraOff ? "Turn camera on" : "Turn camera off"}
          </Button>
        )}
        {pictureInPicture && remote && (
          <Button
            variant="outline"
            onClick={() => void remoteVideo.current?.requestPictureInPicture().catch(() => undefined)}
          >
            <PictureInPicture2 aria-hidden="true" /> Picture in picture
          </Button>
        )}
        <Button variant="destructive" onClick={onLeave}>
          <PhoneOff aria-hidden="true" /> Leave
        </Button>
      </div>
      <SessionRecordPanel room={room} />
    </section>
  );
}
