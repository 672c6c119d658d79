import { Mic, MicOff, PhoneOff, Video, VideoOff } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { CHAT_MAX_LENGTH } from "#course/calls";
import type { ChatMessage, CallRoom as Room } from "#server/modules/calls/calls.contract";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { type CallState, useCall } from "#web/features/calls/call-connection";
import { SessionRecordPanel } from "#web/features/calls/components/session-record";

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
 * and camera buttons, the chat, and the session's record (the cue cards; on the tutor's side their
 * ratings, notes and the learner's brief). The WebSocket carries the negotiation, the chat and the
 * session's end; when the other side arrives (again, after a reload) a fresh peer connection is
 * negotiated. An Admin (no `stream`) follows the chat and the record without joining the call.
 */
export function CallRoom({ room, stream, onLeave }: { room: Room; stream: MediaStream | null; onLeave: () => void }) {
  const { booking } = room;
  const call = useCall(room, stream);

  const chatPanel = (
    <Chat
      messages={call.chat}
      names={Object.fromEntries(
        [booking.learner, booking.tutor].flatMap((side) => (side.id === null ? [] : [[side.id, side.name]])),
      )}
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
      <CallView room={room} stream={stream} call={call} onLeave={onLeave} />
      {chatPanel}
    </div>
  );
}

/** The call itself: the other side's video, the user's own picture, mute and camera, leaving, and the session's record. */
function CallView({
  room,
  stream,
  call,
  onLeave,
}: {
  room: Room;
  stream: MediaStream;
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
  const hasVideo = stream.getVideoTracks().length > 0;

  useEffect(() => {
    if (localVideo.current) localVideo.current.srcObject = stream;
  }, [stream]);
  useEffect(() => {
    if (remoteVideo.current) remoteVideo.current.srcObject = remote;
  }, [remote]);

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
      <div className="relative overflow-hidden rounded-xl bg-black">
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
        <Button variant="destructive" onClick={onLeave}>
          <PhoneOff aria-hidden="true" /> Leave
        </Button>
      </div>
      <SessionRecordPanel room={room} />
    </section>
  );
}

function Chat({
  messages,
  names,
  problem,
  send,
}: {
  messages: ChatMessage[];
  names: Record<string, string>;
  problem: string | null;
  send: (text: string) => void;
}) {
  const [text, setText] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = text.trim();
    if (!trimmed) return;
    send(trimmed);
    setText("");
  };
  return (
    <section aria-labelledby="chat-heading" className="flex flex-col gap-3 rounded-xl border bg-card p-4 shadow-sm">
      <h2 id="chat-heading" className="text-lg font-semibold">
        Chat
      </h2>
      <ol aria-live="polite" className="max-h-80 min-h-24 space-y-2 overflow-y-auto">
        {messages.map((message) => (
          <li key={message.id}>
            <span className="font-medium">{names[message.from] ?? "Staff"}:</span> {message.text}
          </li>
        ))}
      </ol>
      <form onSubmit={submit} className="grid gap-2">
        <Field
          label="Message"
          value={text}
          maxLength={CHAT_MAX_LENGTH}
          onChange={(event) => setText(event.target.value)}
          hint={problem ?? undefined}
        />
        <Button type="submit">Send</Button>
      </form>
    </section>
  );
}
