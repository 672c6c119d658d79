import { type ServerOptions, WebSocketServer } from "ws";

/**
 * The largest message a side may send: an offer's SDP is at most 60,000 characters (calls.contract.ts)
 * and a real one a few KB. A larger frame closes the socket (1009, by ws itself) before it is read.
 */
export const ROOM_MAX_PAYLOAD = 64 * 1024;

/**
 * What ws may hold of one socket's unfinished message: at most ROOM_MAX_PAYLOAD bytes, in at most
 * 16 fragments (a browser sends each message as one frame), read in at most 256 chunks of the
 * network. Past either count the socket closes (1008): a message sent one byte at a time cannot make
 * ws keep thousands of small buffers (options of ws 8.18 and later; @types/ws does not list them yet).
 */
const LIMITS: ServerOptions & { maxFragments: number; maxBufferedChunks: number } = {
  noServer: true,
  maxPayload: ROOM_MAX_PAYLOAD,
  maxFragments: 16,
  maxBufferedChunks: 256,
};

/** The WebSocket server of the session rooms, for @hono/node-server's `serve({ websocket })`. */
export function roomSocketServer(): WebSocketServer {
  return new WebSocketServer(LIMITS);
}
