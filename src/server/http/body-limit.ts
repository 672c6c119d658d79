import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { payloadTooLarge } from "./errors";

/**
 * Refuses a request body over `maxSize` bytes with a 413 before it is read. A body with a
 * Content-Length and no Transfer-Encoding is judged by that header alone, without touching the
 * body, so the handler still reads it straight from the socket. Any other body (chunked, or a
 * request made in process without either header) goes through Hono's bodyLimit, which counts the
 * bytes as they arrive and stops at the limit.
 */
export function limitBody(maxSize: number, message?: string): MiddlewareHandler {
  const tooLarge = (): never => {
    throw payloadTooLarge(message);
  };
  const counted = bodyLimit({ maxSize, onError: tooLarge });
  return (c, next) => {
    const length = c.req.header("content-length");
    const chunked = c.req.header("transfer-encoding") !== undefined;
    if (length !== undefined && !chunked) {
      if (Number.parseInt(length, 10) > maxSize) tooLarge();
      return next();
    }
    // A GET or HEAD without either header has no body.
    if (!chunked && (c.req.method === "GET" || c.req.method === "HEAD")) return next();
    return counted(c, next);
  };
}
