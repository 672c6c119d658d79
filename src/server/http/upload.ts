/**
 * What file uploads (an avatar, a take) share: room for the multipart envelope, the file name's
 * check, and the time the body has to arrive.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { errorJson, HttpError } from "./errors";

/** Room for the multipart envelope around a file of the largest size an upload takes. */
export const MULTIPART_OVERHEAD = 16 * 1024;

/** No common file system (NTFS, APFS, ext4) allows a file name longer than 255 characters. */
const MAX_FILE_NAME_LENGTH = 255;

/**
 * Whether the part's file name is a bare name, as browsers send it: no folder separator, not `.`
 * or `..`, no control characters, no longer than a file system allows. The server names stored
 * files itself and never uses this name; one that only a crafted request could send is refused
 * all the same.
 */
export function isBareFileName(name: string): boolean {
  if (/[/\\\p{Cc}]/u.test(name) || name === "." || name === "..") return false;
  return [...name].length <= MAX_FILE_NAME_LENGTH;
}

/** A declared content type without its parameters, in lower case: "audio/webm;codecs=opus" is "audio/webm". */
export const mediaTypeOf = (declared: string) => declared.split(";")[0]!.trim().toLowerCase();

/**
 * Every upload's body must arrive within this long. A take or an avatar is 1 MB at most: over a
 * poor mobile link (300 kbit/s up) that is under 30 s, and a real take is some 30 KB. A body still
 * arriving after it is a client trickling bytes to hold the server's memory and a connection.
 */
export const UPLOAD_DEADLINE_MS = 30_000;

const TOO_SLOW = (ms: number) => {
  const seconds = Math.round(ms / 1000);
  return `The upload took longer than ${seconds} second${seconds === 1 ? "" : "s"} to arrive. Please try again on a steadier connection.`;
};

/**
 * Refuses an upload whose body has not arrived within `ms`: the route's reading of the body fails
 * there, so nothing is stored, and the answer is 408 in the error shape, with the connection closed
 * (the rest of the body is never read). Node's own requestTimeout (main.ts) is the limit for every
 * other request; this one is tighter and answers in the error shape.
 */
export function uploadDeadline(ms: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const source = body.getReader();
    let expired = false;
    let timer: NodeJS.Timeout | undefined;
    // Not a cancel of the source: that would destroy the socket before the 408 is written.
    const timed = new ReadableStream<Uint8Array>({
      start(controller) {
        timer = setTimeout(() => {
          expired = true;
          controller.error(new HttpError(408, "REQUEST_TIMEOUT", TOO_SLOW(ms)));
        }, ms);
      },
      async pull(controller) {
        const { done, value } = await source.read();
        if (expired) return;
        if (done) {
          clearTimeout(timer);
          controller.close();
        } else controller.enqueue(value);
      },
      cancel: () => clearTimeout(timer),
    });
    c.req.raw = new Request(c.req.raw, { body: timed, duplex: "half" } as RequestInit);
    try {
      await next();
    } catch (error) {
      if (!expired) throw error;
    } finally {
      clearTimeout(timer);
    }
    if (expired) {
      c.res = errorJson(c, 408, { code: "REQUEST_TIMEOUT", message: TOO_SLOW(ms) });
      c.res.headers.set("connection", "close");
    }
  };
}
