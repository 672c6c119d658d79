import { randomUUID } from "node:crypto";
import { upgradeWebSocket } from "@hono/node-server";
import { Hono } from "hono";
import { requireUser, signedIn, withRole } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { HttpError } from "#server/http/errors";
import { jsonBody } from "#server/http/validation";
import { SIGNED_OUT_REASON } from "./calls.access";
import {
  type CallClientMessage,
  type CallRoom,
  type CallServerMessage,
  callClientMessageSchema,
  notesInputSchema,
  ROOM_CLOSE_CODES,
  type RoomPresence,
  rateInputSchema,
  type SessionBrief,
  type SessionRatingGiven,
  type SessionRecord,
  sessionRatingInputSchema,
  type TutorRatings,
  type TutorsRatings,
} from "./calls.contract";
import type { Refusal } from "./calls.repository";
import type { Side } from "./calls.rooms";
import type { CallsService } from "./calls.service";

/**
 * The most frames one socket may send in MESSAGE_WINDOW_MS, valid or not, before any is read: far
 * more than a call needs. What a user may store in a room is limited on the stored rows, across
 * their sockets and the instances (calls.repository.ts).
 */
const MESSAGES_PER_WINDOW = 200;
const MESSAGE_WINDOW_MS = 10_000;

/** What a side is told, or how its socket closes, when what it sent was refused. */
function refuse(side: Side, refusal: Refusal, message: CallClientMessage) {
  if (refusal === "signed-out") side.close(ROOM_CLOSE_CODES.signedOut, SIGNED_OUT_REASON);
  else if (refusal === "too-many") side.close(ROOM_CLOSE_CODES.tooManyMessages, "Too many messages.");
  else if (message.type === "chat") {
    side.send({ type: "error", message: "This session's chat is full: no more messages can be kept for it." });
  } else {
    side.send({ type: "error", message: "This call has sent far more than a call needs: nothing more is relayed." });
  }
}

/**
 * A booking's session room: GET /:bookingId (the room, its ICE servers and its chat) and the room's
 * WebSocket at /:bookingId/signal, open to the booking's learner, its tutor and Admins while the
 * room is open. A refused upgrade answers with the refusal's status and message, as any route does.
 */
export function callRoutes(calls: CallsService) {
  return new Hono<AppEnv>()
    .get("/session-ratings/mine", withRole("tutor:view"), async (c) => {
      const body: TutorRatings = await calls.held.myRatings(requireUser(c));
      return c.json(body);
    })
    .get("/session-ratings/tutors", withRole("admin:view"), async (c) => {
      const body: TutorsRatings = await calls.held.everyTutorsRatings();
      return c.json(body);
    })
    .get("/:bookingId", signedIn, async (c) => {
      const body: CallRoom = await calls.room(requireUser(c), c.req.param("bookingId"));
      return c.json(body);
    })
    .get("/:bookingId/presence", signedIn, async (c) => {
      const body: RoomPresence = await calls.presence(requireUser(c), c.req.param("bookingId"));
      return c.json(body);
    })
    .get("/:bookingId/brief", signedIn, async (c) => {
      const body: SessionBrief = await calls.brief(requireUser(c), c.req.param("bookingId"));
      return c.json(body);
    })
    .put("/:bookingId/ratings", signedIn, jsonBody(rateInputSchema, { messageFromIssues: true }), async (c) => {
      const body: SessionRecord = await calls.rate(requireUser(c), c.req.param("bookingId"), c.req.valid("json"));
      return c.json(body);
    })
    .put("/:bookingId/notes", signedIn, jsonBody(notesInputSchema, { messageFromIssues: true }), async (c) => {
      const { notes } = c.req.valid("json");
      const body: SessionRecord = await calls.saveNotes(requireUser(c), c.req.param("bookingId"), notes);
      return c.json(body);
    })
    .put(
      "/:bookingId/session-rating",
      signedIn,
      jsonBody(sessionRatingInputSchema, { messageFromIssues: true }),
      async (c) => {
        const input = c.req.valid("json");
        const body: SessionRatingGiven = await calls.held.rateSession(requireUser(c), c.req.param("bookingId"), input);
        return c.json(body);
      },
    )
    .post("/:bookingId/end", signedIn, async (c) => {
      const body: SessionRecord = await calls.end(requireUser(c), c.req.param("bookingId"));
      return c.json(body);
    })
    .get(
      "/:bookingId/signal",
      signedIn,
      async (c, next) => {
        if (c.req.header("upgrade")?.toLowerCase() === "websocket") return next();
        // Not a WebSocket: say what this is to whoever may come in, and nothing to anyone else.
        await calls.room(requireUser(c), c.req.param("bookingId"));
        throw new HttpError(426, "UPGRADE_REQUIRED", "This is the session room's WebSocket: connect to it with one.");
      },
      roomSocket(calls),
    );
}

/**
 * The room's WebSocket: the user's side of the booking's room while the socket is open, each frame
 * counted against MESSAGES_PER_WINDOW before it is read.
 */
function roomSocket(calls: CallsService) {
  return upgradeWebSocket(async (c) => {
    const me = requireUser(c);
    const sessionId = c.get("sessionId") ?? "";
    // The room is the booking as stored: another spelling of its id joins the same room.
    const { bookingId, closesAt } = await calls.admit(me, c.req.param("bookingId") ?? "");
    let side: Side | null = null;
    let joining: Promise<void> = Promise.resolve();
    let closed = false;
    let window = { startedAt: Date.now(), messages: 0 };
    return {
      onOpen(_event, ws) {
        const joined: Side = {
          bookingId,
          userId: me.id,
          sessionId,
          connectionId: randomUUID(),
          send: (message: CallServerMessage) => {
            if (ws.readyState === 1) ws.send(JSON.stringify(message));
          },
          // Nothing more is read from a socket being closed, nor sent to it.
          close: (code, reason) => {
            closed = true;
            ws.close(code, reason);
          },
        };
        side = joined;
        joining = calls.rooms.join(joined);
        void joining
          .then(() => (closed ? undefined : calls.access.watch(joined, closesAt)))
          .catch(() => joined.close(1011, "The room could not be joined."));
      },
      onMessage(event) {
        if (!side || closed) return;
        if (Date.now() - window.startedAt > MESSAGE_WINDOW_MS) window = { startedAt: Date.now(), messages: 0 };
        window.messages += 1;
        if (window.messages > MESSAGES_PER_WINDOW) {
          side.close(ROOM_CLOSE_CODES.tooManyMessages, "Too many messages.");
          return;
        }
        relayFrame(calls, side, event.data);
      },
      onClose() {
        closed = true;
        const left = side;
        side = null;
        if (!left) return;
        calls.access.forget(left);
        // After its join, however far that got: a side is never left in its room.
        void joining
          .catch(() => undefined)
          .then(() => calls.rooms.leave(left))
          .catch(() => undefined);
      },
    };
  });
}

/** A frame a side sent, read and relayed to its room; the side is told what was wrong with it, or refused. */
function relayFrame(calls: CallsService, current: Side, data: unknown) {
  let parsed: ReturnType<typeof callClientMessageSchema.safeParse>;
  try {
    parsed = callClientMessageSchema.safeParse(JSON.parse(String(data)));
  } catch {
    current.send({ type: "error", message: "A message must be JSON." });
    return;
  }
  if (!parsed.success) {
    current.send({ type: "error", message: parsed.error.issues[0]?.message ?? "This message is not valid." });
    return;
  }
  const message = parsed.data;
  void calls.rooms.receive(current, message).then(
    (refusal) => (refusal ? refuse(current, refusal, message) : undefined),
    () => current.send({ type: "error", message: "That did not reach the room. Send it again." }),
  );
}
