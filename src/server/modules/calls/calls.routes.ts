import { randomUUID } from "node:crypto";
import { upgradeWebSocket } from "@hono/node-server";
import { Hono } from "hono";
import { requireUser, signedIn } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { HttpError } from "#server/http/errors";
import { jsonBody } from "#server/http/validation";
import {
  type CallRoom,
  type CallServerMessage,
  callClientMessageSchema,
  notesInputSchema,
  rateInputSchema,
  type SessionBrief,
  type SessionRecord,
} from "./calls.contract";
import type { Side } from "./calls.rooms";
import type { CallsService } from "./calls.service";

/** The most a side may send in MESSAGE_WINDOW_MS: far more than a call's negotiation and chat need. */
const MESSAGES_PER_WINDOW = 200;
const MESSAGE_WINDOW_MS = 10_000;
/** WebSocket close codes: the room closed at its time, a side sent far too much. */
const ROOM_CLOSED = 4001;
const TOO_MANY_MESSAGES = 1008;

/**
 * A booking's session room: GET /:bookingId (the room, its ICE servers and its chat) and the room's
 * WebSocket at /:bookingId/signal, open to the booking's learner, its tutor and Admins while the
 * room is open. A refused upgrade answers with the refusal's status and message, as any route does.
 */
export function callRoutes(calls: CallsService) {
  return new Hono<AppEnv>()
    .get("/:bookingId", signedIn, async (c) => {
      const body: CallRoom = await calls.room(requireUser(c), c.req.param("bookingId"));
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
      upgradeWebSocket(async (c) => {
        const me = requireUser(c);
        const bookingId = c.req.param("bookingId") ?? "";
        const { closesAt } = await calls.admit(me, bookingId);
        let side: Side | null = null;
        let closing: NodeJS.Timeout | undefined;
        let window = { startedAt: Date.now(), messages: 0 };
        return {
          onOpen(_event, ws) {
            const joined: Side = {
              bookingId,
              userId: me.id,
              connectionId: randomUUID(),
              send: (message: CallServerMessage) => {
                if (ws.readyState === 1) ws.send(JSON.stringify(message));
              },
              close: (code, reason) => ws.close(code, reason),
            };
            side = joined;
            closing = setTimeout(
              () => ws.close(ROOM_CLOSED, "The session's room has closed."),
              Math.max(0, closesAt.getTime() - Date.now()),
            );
            closing.unref();
            void calls.rooms.join(joined).catch(() => ws.close(1011, "The room could not be joined."));
          },
          onMessage(event, ws) {
            if (!side) return;
            if (Date.now() - window.startedAt > MESSAGE_WINDOW_MS) window = { startedAt: Date.now(), messages: 0 };
            window.messages += 1;
            if (window.messages > MESSAGES_PER_WINDOW) {
              ws.close(TOO_MANY_MESSAGES, "Too many messages.");
              return;
            }
            const current = side;
            let parsed: ReturnType<typeof callClientMessageSchema.safeParse>;
            try {
              parsed = callClientMessageSchema.safeParse(JSON.parse(String(event.data)));
            } catch {
              current.send({ type: "error", message: "A message must be JSON." });
              return;
            }
            if (!parsed.success) {
              current.send({ type: "error", message: parsed.error.issues[0]?.message ?? "This message is not valid." });
              return;
            }
            void calls.rooms
              .receive(current, parsed.data)
              .catch(() => current.send({ type: "error", message: "That did not reach the room. Send it again." }));
          },
          onClose() {
            clearTimeout(closing);
            const left = side;
            side = null;
            if (left) void calls.rooms.leave(left).catch(() => undefined);
          },
        };
      }),
    );
}
