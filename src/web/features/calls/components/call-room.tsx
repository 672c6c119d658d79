import { useQueryClient } from "@tanstack/react-query";
import { Mic, MicOff, PhoneOff, Video, VideoOff } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { CHAT_MAX_LENGTH } from "#course/calls";
import type { CallServerMessage, ChatMessage, CallRoom as Room } from "#server/modules/calls/calls.contract";
import { Button } from "#web/components/ui/button";
import { Field } from "#web/components/ui/field";
import { roomSocketUrl } from "#web/features/calls/api/room";
import { SessionRecordPanel } from "#web/features/calls/components/session-record";
import { createPeer, type Peer } from "#web/features/calls/peer";
import { openRoomSocket, type RoomSocket, type SocketState } from "#web/features/calls/room-connection";
import { callRoomQueryKey } from "#web/lib/query-keys";
import { toast } from "#web/lib/toast";

type CallState = "waiting" | "connecting" | "connected" | "reconnecting" | "replaced" | "closed";

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
  const other = booking.youAre === "tutor" ? booking.learner : booking.tutor;
  const queryClient = useQueryClient();
  const [state, setState] = useState<CallState>("waiting");
  const [remote, setRemote] = useState<MediaStream | null>(null);
  const [chat, setChat] = useState<ChatMessage[]>(room.chat);
  const [problem, setProblem] = useState<string | null>(null);
  /** Why the server closed the room for this page (signed out, cancelled…), when it said. */
  const [closedBecause, setClosedBecause] = useState<string | null>(null);
  const [muted, setMuted] = useState(false);
  const [cameraOff, setCameraOff] = useState(false);
  const socketRef = useRef<RoomSocket | null>(null);
  const localVideo = useRef<HTMLVideoElement>(null);
  const remoteVideo = useRef<HTMLVideoElement>(null);
  const hasVideo = (stream?.getVideoTracks().length ?? 0) > 0;

  useEffect(() => {
    let peer: Peer | null = null;
    let peerSocket: string | null = null;
    let freshSocket = true;
    let socketState: SocketState = "connecting";

    const offerer = booking.youAre === "tutor";
    const newPeer = (send: RoomSocket["send"]) => {
      if (!stream) return;
      peer?.close();
      setRemote(null);
      peer = createPeer({
        iceServers: room.iceServers,
        offerer,
        stream,
        send,
        onTrack: setRemote,
        onState: (connection) => {
          if (connection === "connected") setState("connected");
          else if (connection === "disconnected" || connection === "failed") setState("reconnecting");
        },
      });
      setState("connecting");
    };

    const onMessage = (message: CallServerMessage) => {
      const socket = socketRef.current;
      if (!socket) return;
      switch (message.type) {
        case "welcome":
          // A new socket of ours: the other side will see a new connection and start afresh.
          freshSocket = true;
          break;
        case "peer":
          if (message.userId !== other.id) break;
          if (message.present && (message.connectionId !== peerSocket || freshSocket || !peer)) {
            // The other side (again, after a reload or a new socket of ours): a new call. The tutor
            // offers it; the learner waits for that offer.
            peerSocket = message.connectionId;
            freshSocket = false;
            if (offerer) newPeer(socket.send);
            else {
              peer?.close();
              peer = null;
              setRemote(null);
              setState("connecting");
            }
          } else if (!message.present && message.connectionId === peerSocket) {
            peer?.close();
            peer = null;
            peerSocket = null;
            setRemote(null);
            setState("waiting");
          }
          break;
        case "description":
          // Only the other side's current socket speaks for the call; an offer starts the learner's side of it.
          if (message.connectionId !== peerSocket) break;
          if (!peer && message.description.type === "offer") newPeer(socket.send);
          void peer?.description(message.description).catch(() => setState("reconnecting"));
          break;
        case "candidate":
          if (message.connectionId !== peerSocket) break;
          void peer?.candidate(message.candidate).catch(() => undefined);
          break;
        case "chat":
          setChat((before) =>
            before.some((each) => each.id === message.message.id) ? before : [...before, message.message],
          );
          break;
        case "ended":
          void queryClient.invalidateQueries({ queryKey: callRoomQueryKey(booking.id), exact: true });
          if (booking.youAre === "learner") {
            toast({ title: "Session ended", description: "Your tutor's ratings and notes are below." });
          }
          break;
        case "replaced":
          setState("replaced");
          break;
        case "error":
          setProblem(message.message);
          break;
      }
    };

    const socket = openRoomSocket(roomSocketUrl(booking.id), {
      message: onMessage,
      state: (next, reason) => {
        if (next === "reconnecting" && socketState === "open") setState("reconnecting");
        if (next === "closed") {
          setState((before) => (before === "replaced" ? before : "closed"));
          setClosedBecause(reason || null);
        }
        socketState = next;
      },
    });
    socketRef.current = socket;
    return () => {
      socket.close();
      socketRef.current = null;
      peer?.close();
    };
  }, [booking.id, booking.youAre, other.id, room.iceServers, stream, queryClient]);

  useEffect(() => {
    if (localVideo.current) localVideo.current.srcObject = stream;
  }, [stream]);
  useEffect(() => {
    if (remoteVideo.current) remoteVideo.current.srcObject = remote;
  }, [remote]);

  const toggleMute = () => {
    for (const track of stream?.getAudioTracks() ?? []) track.enabled = muted;
    setMuted(!muted);
  };
  const toggleCamera = () => {
    for (const track of stream?.getVideoTracks() ?? []) track.enabled = cameraOff;
    setCameraOff(!cameraOff);
  };

  const chatPanel = (
    <Chat
      messages={chat}
      names={Object.fromEntries(
        [booking.learner, booking.tutor].flatMap((side) => (side.id === null ? [] : [[side.id, side.name]])),
      )}
      problem={problem}
      send={(text) => {
        setProblem(null);
        socketRef.current?.send({ type: "chat", text });
      }}
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
      {chatPanel}
    </div>
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
