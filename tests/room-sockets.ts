import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll } from "vitest";
import WebSocket from "ws";
import type { CallServerMessage } from "#server/modules/calls/calls.contract";
import { roomSocketServer } from "#server/modules/calls/calls.sockets";
import { ORIGIN } from "./test-app";

/** An app served on a port of its own with the session rooms' WebSocket server, as main.ts serves it. */
export interface Instance {
  port(): number;
}

/**
 * Each app served as an instance behind a load balancer would be: HTTP and the rooms' WebSockets on
 * a port of its own. Its sockets and servers are closed after the file's tests.
 */
export function serveInstances(
  apps: Array<{ fetch: (request: Request, env?: unknown) => Response | Promise<Response> }>,
) {
  const sockets: WebSocket[] = [];
  const servers = apps.map((app) =>
    serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1", websocket: { server: roomSocketServer() } }),
  );
  afterAll(async () => {
    for (const socket of sockets) socket.terminate();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });
  const instances: Instance[] = servers.map((server) => ({ port: () => (server.address() as AddressInfo).port }));

  /** A WebSocket into a room with what it has received, to wait on. */
  function join(instance: Instance, bookingId: string, cookie: string, origin = ORIGIN) {
    const socket = new WebSocket(`ws://127.0.0.1:${instance.port()}/api/calls/${bookingId}/signal`, {
      headers: { cookie, origin },
    });
    sockets.push(socket);
    const received: CallServerMessage[] = [];
    const waiters: Array<() => void> = [];
    socket.on("message", (data) => {
      received.push(JSON.parse(String(data)) as CallServerMessage);
      for (const wake of waiters.splice(0)) wake();
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      socket.on("close", (code, reason) => resolve({ code, reason: String(reason) })),
    );
    /** The first message received (or to come) that matches, within 10 s; each is taken once. */
    async function next<T extends CallServerMessage>(matches: (message: CallServerMessage) => message is T): Promise<T>;
    async function next(matches: (message: CallServerMessage) => boolean): Promise<CallServerMessage>;
    async function next(matches: (message: CallServerMessage) => boolean) {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const index = received.findIndex(matches);
        if (index >= 0) return received.splice(index, 1)[0]!;
        if (Date.now() > deadline) throw new Error(`no such message; received ${JSON.stringify(received)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    }
    const send = (message: unknown) => socket.send(JSON.stringify(message));
    const opened = new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return { socket, received, next, send, closed, opened };
  }

  /** The status a refused WebSocket upgrade answered with (the refusal carries no body). */
  function refusal(instance: Instance, bookingId: string, cookie: string, origin = ORIGIN) {
    return new Promise<number>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${instance.port()}/api/calls/${bookingId}/signal`, {
        headers: { cookie, origin },
      });
      socket.on("open", () => reject(new Error("the room let it in")));
      socket.on("unexpected-response", (_request, response) => resolve(response.statusCode ?? 0));
      socket.on("error", () => undefined);
    });
  }

  return { instances, join, refusal };
}

export type RoomSide = ReturnType<ReturnType<typeof serveInstances>["join"]>;

export const isWelcome = (message: CallServerMessage): message is Extract<CallServerMessage, { type: "welcome" }> =>
  message.type === "welcome";

export const isPeer = (userId: string, present: boolean) => (message: CallServerMessage) =>
  message.type === "peer" && message.userId === userId && message.present === present;
