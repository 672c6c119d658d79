import { type CallClientMessage, type CallServerMessage, ROOM_CLOSE_CODES } from "#server/modules/calls/calls.contract";

/** Waits before opening the room's socket again after it closed: 0.5 s, doubling to 8 s. */
const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 8_000;
/**
 * Close codes after which the page does not come back by itself: replaced by another tab, the room
 * closed, signed out, no longer allowed, the session cancelled or moved, too many messages. Coming
 * back would be refused again (or push the other tab out), so the page says why instead.
 */
const FINAL_CLOSES = new Set<number>(Object.values(ROOM_CLOSE_CODES));

export type SocketState = "connecting" | "open" | "reconnecting" | "closed";

export interface RoomSocketEvents {
  message: (message: CallServerMessage) => void;
  state: (state: SocketState, reason?: string) => void;
}

/**
 * The page's side of the room's WebSocket: opened, and opened again when it drops (a restart of the
 * instance, a network change), until the room closes or the page leaves. Messages sent while it is
 * down wait and go once it is back, in order.
 */
export function openRoomSocket(url: string, events: RoomSocketEvents) {
  let socket: WebSocket | null = null;
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const waiting: string[] = [];

  function connect(state: SocketState) {
    events.state(state);
    const next = new WebSocket(url);
    socket = next;
    next.onopen = () => {
      retryMs = FIRST_RETRY_MS;
      events.state("open");
      for (const message of waiting.splice(0)) next.send(message);
    };
    next.onmessage = (event) => {
      try {
        events.message(JSON.parse(String(event.data)) as CallServerMessage);
      } catch {
        // Not one of ours: nothing to do with it.
      }
    };
    next.onclose = (event) => {
      if (socket !== next || stopped) return;
      socket = null;
      if (FINAL_CLOSES.has(event.code)) {
        stopped = true;
        events.state("closed", event.reason);
        return;
      }
      events.state("reconnecting");
      retry = setTimeout(() => connect("reconnecting"), retryMs);
      retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
    };
  }

  connect("connecting");
  return {
    send(message: CallClientMessage) {
      const text = JSON.stringify(message);
      if (socket?.readyState === WebSocket.OPEN) socket.send(text);
      else waiting.push(text);
    },
    close() {
      stopped = true;
      clearTimeout(retry);
      socket?.close(1000, "Left the room.");
      socket = null;
    },
  };
}

export type RoomSocket = ReturnType<typeof openRoomSocket>;
