import { z } from "zod";
import { CHAT_MAX_LENGTH } from "#course/calls";
import type { BookingView } from "#server/modules/bookings/bookings.contract";

/** An ICE server for RTCPeerConnection: the operator's TURN server, with credentials for this user. */
export interface IceServer {
  urls: string[];
  username: string;
  credential: string;
}

/** A message of a session's chat. */
export interface ChatMessage {
  id: string;
  /** The sender's user id. */
  from: string;
  text: string;
  at: string;
}

/** GET /api/calls/:bookingId: the session's room as its two sides (and Admins) see it. */
export interface CallRoom {
  booking: BookingView;
  opensAt: string;
  closesAt: string;
  /** Whether the room takes its sides now. */
  open: boolean;
  /** Empty without TURN_URL and TURN_SECRET: the call then works on one network. */
  iceServers: IceServer[];
  chat: ChatMessage[];
}

const description = z.object({
  type: z.enum(["offer", "answer", "rollback"]),
  sdp: z.string().max(60_000).optional(),
});

const candidate = z
  .object({
    candidate: z.string().max(2_000),
    sdpMid: z.string().max(64).nullish(),
    sdpMLineIndex: z.number().int().min(0).max(255).nullish(),
    usernameFragment: z.string().max(256).nullish(),
  })
  .nullable();

/** What a side sends on the room's WebSocket (GET /api/calls/:bookingId/signal). */
export const callClientMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("description"), description }),
  z.object({ type: z.literal("candidate"), candidate }),
  z.object({
    type: z.literal("chat"),
    text: z
      .string()
      .trim()
      .min(1, "Write a message first.")
      .max(CHAT_MAX_LENGTH, `A message can be at most ${CHAT_MAX_LENGTH} characters.`),
  }),
]);
export type CallClientMessage = z.infer<typeof callClientMessageSchema>;

/** What the server sends a side on the room's WebSocket. */
export type CallServerMessage =
  /** The socket is in the room; `connectionId` is how the other side's messages name it. */
  | { type: "welcome"; connectionId: string }
  /**
   * The other side (a user id) is there or went; `connectionId` names its socket, so a side that
   * reloaded (a new socket) is told apart from one answering again.
   */
  | { type: "peer"; userId: string; connectionId: string; present: boolean }
  /** From the other side (`from`, a user id) on its socket `connectionId`. */
  | { type: "description"; from: string; connectionId: string; description: z.infer<typeof description> }
  | { type: "candidate"; from: string; connectionId: string; candidate: z.infer<typeof candidate> }
  | { type: "chat"; message: ChatMessage }
  /** The same user opened the room elsewhere (another tab or device): this socket closes. */
  | { type: "replaced" }
  /** A message that could not be taken, and why; the socket stays open. */
  | { type: "error"; message: string };
