import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { type Handler, Hono, type MiddlewareHandler, type NotFoundHandler } from "hono";
import { compress } from "hono/compress";
import { requestId } from "hono/request-id";
import { secureHeaders } from "hono/secure-headers";
import type { Logger } from "pino";
import { loadSession } from "./auth/session";
import { databaseAnswers } from "./db/client";
import { audit, pathForLog } from "./http/audit";
import { limitBody } from "./http/body-limit";
import { clientIp, resolveClientIp, withClientIp } from "./http/client-ip";
import type { AppEnv } from "./http/context";
import { createErrorHandler, errorJson, forbidden } from "./http/errors";
import { byteRangeOf, fileResponse } from "./http/file-response";
import { steadyAnswer } from "./http/steady-answer";
import { JSON_BODY_LIMIT } from "./modules/module";
import { API_PREFIX, createModules, type ModuleDeps, type Modules, mountModules } from "./modules/registry";
import { queueLines } from "./queue/stats";

export interface AppDeps extends ModuleDeps {
  /** The built web app (dist/web). When absent, only the API is served (tests, `npm run dev`). */
  webRoot?: string;
  /** TRUST_PROXY: read the client's address from X-Forwarded-For (src/server/http/client-ip.ts). Default off. */
  trustProxy?: boolean;
  /** How long an upload's body may take to arrive (http/upload.ts); UPLOAD_DEADLINE_MS unless a test sets less. */
  uploadDeadlineMs?: number;
}

const IMMUTABLE = "public, max-age=31536000, immutable";
/** Far above the few milliseconds the work of a reset request takes, even on a busy server. */
export const PASSWORD_RESET_ANSWER_MS = 250;

/**
 * The app: request ids, logs, security headers and the error shape for every request; under /api
 * the origin check, Better Auth and the session, then the modules (modules/registry.ts); avatars
 * and the built web app outside it.
 */
export function createApp(deps: AppDeps, modules: Modules = createModules(deps)) {
  const { logger } = deps;
  const app = new Hono<AppEnv>();

  app.use(requestId());
  app.use(resolveClientIp(deps.trustProxy ?? false));
  app.use(compressOutsideApi());
  app.use(logRequests(logger));
  app.use(securityHeaders(deps.publicUrl));
  app.onError(createErrorHandler(logger));

  // `?detail` adds a line per queue of background work (queue/stats.ts) and the events' deliveries
  // (events/outbox.ts), each null when it cannot be read.
  app.get("/healthz", health(deps.pool, modules.events));

  app.route(API_PREFIX, createApi(deps, modules));

  app.get("/media/avatars/:file", avatars(deps.storage));

  const indexHtml = deps.webRoot ? readIndexHtml(deps.webRoot) : null;
  if (deps.webRoot && indexHtml) {
    const root = deps.webRoot;
    app.use("*", staticFiles(root));
  }

  app.notFound(notFound(indexHtml));

  return app;
}

/**
 * gzip for the web app's text (HTML, JS, CSS, SVG); images, audio and video are already
 * compressed. API answers are small JSON sent uncompressed: a response made by c.json has no
 * length yet, so compressing would stream every answer, however small, through a gzip stream.
 */
function compressOutsideApi(): MiddlewareHandler<AppEnv> {
  const gzip = compress();
  return (c, next) => (c.req.path.startsWith("/api/") ? next() : gzip(c, next));
}

/** A log line for every request, and an audit line for every refusal. */
function logRequests(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestLogger = logger.child({ requestId: c.get("requestId") });
    c.set("logger", requestLogger);
    await next();
    const user = c.get("user");
    const path = pathForLog(c.req.path);
    requestLogger.info(
      {
        method: c.req.method,
        path,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 10) / 10,
        userId: user?.id,
      },
      "request",
    );
    // Every refusal, whichever layer answered it (a guard, the origin check, Better Auth, a limit).
    if (c.res.status === 403 || c.res.status === 429) {
      audit(requestLogger, c.res.status === 403 ? "forbidden" : "rate_limited", {
        userId: user?.id,
        method: c.req.method,
        path,
        ip: clientIp(c),
      });
    }
  };
}

/** The security headers of every answer: the content security policy, framing, referrer and HSTS over https. */
function securityHeaders(publicUrl: string): MiddlewareHandler<AppEnv> {
  return secureHeaders({
    // Routes that set a stricter header of their own (avatars) keep it.
    overwrite: false,
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      // The voice studio's WAV recorder runs its encoders in workers it makes from blobs
      // (extendable-media-recorder).
      workerSrc: ["'self'", "blob:"],
      // Radix positions popovers with inline style attributes.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:"],
      mediaSrc: ["'self'", "blob:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
    },
    xFrameOptions: "DENY",
    referrerPolicy: "strict-origin-when-cross-origin",
    strictTransportSecurity: publicUrl.startsWith("https://") ? "max-age=31536000; includeSubDomains" : false,
    crossOriginEmbedderPolicy: false,
  });
}

/** Whether the database answers, and with `?detail` the queues of background work and the events waiting. */
function health(pool: AppDeps["pool"], events: Pick<Modules["events"], "stats">): Handler<AppEnv> {
  return async (c) => {
    const ok = await databaseAnswers(pool);
    c.header("cache-control", "no-store");
    const health = { status: ok ? "ok" : "unavailable", database: ok };
    if (c.req.query("detail") === undefined) return c.json(health, ok ? 200 : 503);
    const [jobs, deliveries] = ok
      ? await Promise.all([queueLines(pool).catch(() => null), events.stats().catch(() => null)])
      : [null, null];
    return c.json({ ...health, jobs, events: deliveries }, ok ? 200 : 503);
  };
}

/** The API under API_PREFIX: never cached unless a route says otherwise, the origin check, Better Auth, the session, then the modules. */
function createApi(deps: AppDeps, modules: Modules): Hono<AppEnv> {
  const { auth } = deps;
  const api = new Hono<AppEnv>();
  api.use(async (c, next) => {
    await next();
    // On the response's headers rather than through c.header, which would rebuild the response. A
    // route that says how it may be cached keeps it (the studio's public clips and their list).
    if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", "no-store");
  });
  api.use(rejectForeignOrigins(deps.publicUrl));
  // A reset request answers in the same time whether the address has an account or not.
  api.post("/auth/request-password-reset", steadyAnswer(PASSWORD_RESET_ANSWER_MS));
  api.on(["GET", "POST"], "/auth/*", limitBody(JSON_BODY_LIMIT), (c) => auth.handler(withClientIp(c)));
  api.use(loadSession(auth, deps.db));
  mountModules(api, modules, deps.uploadDeadlineMs);
  return api;
}

/** The avatars' images, from storage. */
function avatars(storage: AppDeps["storage"]): Handler<AppEnv, "/media/avatars/:file"> {
  return async (c) => {
    const range = byteRangeOf(c.req.header("range"));
    const file = await storage.open(`avatars/${c.req.param("file")}`, range);
    if (!file) return errorJson(c, 404, { code: "NOT_FOUND", message: "No such image." });
    // Only WebP made by the server is stored under avatars/, so the type is never taken from the data.
    return fileResponse({ method: c.req.method, ranged: range !== undefined }, file, {
      "content-type": "image/webp",
      "cache-control": IMMUTABLE,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
    });
  };
}

/** What answers a path nothing else served: the API's error, the web app's shell, or a plain 404. */
function notFound(indexHtml: string | null): NotFoundHandler<AppEnv> {
  return (c) => {
    if (c.req.path === "/api" || c.req.path.startsWith("/api/")) {
      return errorJson(c, 404, { code: "NOT_FOUND", message: `No API route ${c.req.method} ${c.req.path}.` });
    }
    if (indexHtml && (c.req.method === "GET" || c.req.method === "HEAD")) {
      // Client-side routes: the single-page app decides what to show, including its own not-found page.
      c.header("cache-control", "no-cache");
      return c.html(indexHtml);
    }
    return c.text("Not found", 404);
  };
}

/**
 * Files of the built web app. Vite puts content-hashed names under /assets, and the app asks for
 * media with their content hash (`/media/…?v=`, src/web/lib/media.ts), so those never change and are
 * cached for a year; HTML and the service worker (decision 087) are revalidated on every visit;
 * anything else for an hour.
 */
function staticFiles(root: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let served: string | null = null;
    const serve = serveStatic<AppEnv>({
      root,
      onFound: (filePath) => {
        served = filePath;
      },
    });
    const response = await serve(c, next);
    if (served && response instanceof Response) {
      const file: string = served;
      const versionedMedia = c.req.path.startsWith("/media/") && c.req.query("v") !== undefined;
      const cacheControl =
        c.req.path.startsWith("/assets/") || versionedMedia
          ? IMMUTABLE
          : file.endsWith(".html") || c.req.path === "/sw.js"
            ? "no-cache"
            : "public, max-age=3600";
      response.headers.set("cache-control", cacheControl);
    }
    return response;
  };
}

/**
 * The HTML for client-side routes: the app shell without prerendered content (app.html) when the
 * build wrote one, since index.html then holds the landing page's prerendered markup.
 */
function readIndexHtml(webRoot: string): string | null {
  for (const name of ["app.html", "index.html"]) {
    const file = path.join(webRoot, name);
    if (existsSync(file)) return readFileSync(file, "utf8");
  }
  return null;
}

/**
 * Browsers send Origin with every state-changing request. One from another site is refused, so a
 * page elsewhere cannot act with a learner's cookie. Requests without Origin (curl, server-to-server)
 * carry no browser cookie to abuse and are let through.
 */
function rejectForeignOrigins(publicUrl: string) {
  const trusted = new URL(publicUrl).origin;
  return async (c: import("hono").Context<AppEnv>, next: () => Promise<void>) => {
    const method = c.req.method;
    // A WebSocket is opened with a GET that browsers send with the page's Origin and cookies: from
    // another site it would be a session room joined in the user's name.
    const upgrade = c.req.header("upgrade")?.toLowerCase() === "websocket";
    if (upgrade || (method !== "GET" && method !== "HEAD" && method !== "OPTIONS")) {
      const origin = c.req.header("origin");
      if (origin && origin !== trusted) throw forbidden("This request came from another site and was refused.");
    }
    await next();
  };
}
