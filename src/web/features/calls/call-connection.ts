import type { QueryClient } from "@tanstack/react-query";
import { useQueryClient } from "@tanstack/react-query";
import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from "react";
import type { CallServerMessage, ChatMessage, CallRoom as Room } from "#server/modules/calls/calls.contract";
import { roomSocketUrl } from "#web/features/calls/api/room";
import { createPeer, type Peer } from "#web/features/calls/peer";
import { openRoomSocket, type RoomSocket, type SocketState } from "#web/features/calls/room-connection";
import { callRoomQueryKey } from "#web/lib/query-keys";
import { toast } from "#web/lib/toast";

export type CallState = "waiting" | "connecting" | "connected" | "reconnecting" | "replaced" | "closed";

/** What this page's side of the call holds between messages: the peer connection, and whose socket it is with. */
interface CallLink {
  peer: Peer | null;
  /** The other side's socket the call is with. */
  peerSocket: string | null;
  /** A new socket of ours: the other side will see a new connection and start afresh. */
  freshSocket: boolean;
}

/** What the room's messages change: the page's state, and the socket answers go back on. */
interface CallContext {
  room: Room;
  stream: MediaStream | null;
  otherId: string | null;
  /** The tutor offers the call; the learner waits for that offer. */
  offerer: boolean;
  send: RoomSocket["send"];
  queryClient: QueryClient;
  setState: Dispatch<SetStateAction<CallState>>;
  setRemote: (remote: MediaStream | null) => void;
  /** The peer connection of the call now, whose statistics the page reads (network quality). */
  setConnection: (connection: RTCPeerConnection | null) => void;
  setChat: Dispatch<SetStateAction<ChatMessage[]>>;
  setProblem: (problem: string | null) => void;
}

/**
 * The call over the room's WebSocket: the negotiation, the chat and the session's end. When the
 * other side arrives (again, after a reload) a fresh peer connection is negotiated. Without a
 * `stream` (an Admin), the chat and the record only.
 */
export function useCall(room: Room, stream: MediaStream | null) {
  const { booking } = room;
  const otherId = (booking.youAre === "tutor" ? booking.learner : booking.tutor).id;
  const queryClient = useQueryClient();
  const [state, setState] = useState<CallState>("waiting");
  const [remote, setRemote] = useState<MediaStream | null>(null);
  const [connection, setConnection] = useState<RTCPeerConnection | null>(null);
  const [chat, setChat] = useState<ChatMessage[]>(room.chat);
  const [problem, setProblem] = useState<string | null>(null);
  /** Why the server closed the room for this page (signed out, cancelled…), when it said. */
  const [closedBecause, setClosedBecause] = useState<string | null>(null);
  const socketRef = useRef<RoomSocket | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the room's other fields (its chat, its record) do not remake the call.
  useEffect(() => {
    const link: CallLink = { peer: null, peerSocket: null, freshSocket: true };
    let socketState: SocketState = "connecting";
    const offerer = booking.youAre === "tutor";
    const context = {
      room,
      stream,
      otherId,
      offerer,
      queryClient,
      setState,
      setRemote,
      setConnection,
      setChat,
      setProblem,
    };
    const socket = openRoomSocket(roomSocketUrl(booking.id), {
      message: (message) => {
        const open = socketRef.current;
        if (open) onCallMessage(link, message, { ...context, send: open.send });
      },
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
      link.peer?.close();
    };
  }, [booking.id, booking.youAre, otherId, room.iceServers, stream, queryClient]);

  const sendChat = (text: string) => {
    setProblem(null);
    socketRef.current?.send({ type: "chat", text });
  };
  return { state, remote, connection, chat, problem, closedBecause, sendChat };
}

/** A fresh peer connection with the other side, replacing any before it. */
function newPeer(link: CallLink, { room, stream, offerer, send, setState, setRemote, setConnection }: CallContext) {
  if (!stream) return;
  link.peer?.close();
  setRemote(null);
  link.peer = createPeer({
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
  setConnection(link.peer.pc);
  setState("connecting");
}

/** The other side came (again, after a reload or a new socket of ours: a new call) or went. */
function onPeer(link: CallLink, message: Extract<CallServerMessage, { type: "peer" }>, context: CallContext) {
  const { setRemote, setState } = context;
  if (message.userId !== context.otherId) return;
  if (message.present && (message.connectionId !== link.peerSocket || link.freshSocket || !link.peer)) {
    link.peerSocket = message.connectionId;
    link.freshSocket = false;
    if (context.offerer) newPeer(link, context);
    else {
      link.peer?.close();
      link.peer = null;
      context.setConnection(null);
      setRemote(null);
      setState("connecting");
    }
  } else if (!message.present && message.connectionId === link.peerSocket) {
    link.peer?.close();
    link.peer = null;
    context.setConnection(null);
    link.peerSocket = null;
    setRemote(null);
    setState("waiting");
  }
}

/** One message of the room's socket. */
function onCallMessage(link: CallLink, message: CallServerMessage, context: CallContext) {
  const { room, queryClient, setState, setChat, setProblem } = context;
  switch (message.type) {
    case "welcome":
      link.freshSocket = true;
      break;
    case "peer":
      onPeer(link, message, context);
      break;
    case "description":
      // Only the other side's current socket speaks for the call; an offer starts the learner's side of it.
      if (message.connectionId !== link.peerSocket) break;
      if (!link.peer && message.description.type === "offer") newPeer(link, context);
      void link.peer?.description(message.description).catch(() => setState("reconnecting"));
      break;
    case "candidate":
      if (message.connectionId !== link.peerSocket) break;
      void link.peer?.candidate(message.candidate).catch(() => undefined);
      break;
    case "chat":
      setChat((before) =>
        before.some((each) => each.id === message.message.id) ? before : [...before, message.message],
      );
      break;
    case "ended":
      void queryClient.invalidateQueries({ queryKey: callRoomQueryKey(room.booking.id), exact: true });
      if (room.booking.youAre === "learner") {
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
}
