/**
 * What file uploads (an avatar, a take) share: room for the multipart envelope, the file name's
 * check, and the time the body has to arrive.
 */
import type { HttpBindings } from "@hono/node-server";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "./context";
import { badRequest, errorJson, HttpError } from "./errors";

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
 * Gives an upload route `c.var.readUpload`, which reads the body within `ms` of the request's
 * arrival, and answers 408 in the error shape, with the connection closed, when it has not arrived
 * by then: the route's read fails there, so nothing is stored, and the rest of the body is never
 * read. The route reads it when it is ready to (after the session and the rate limit are checked),
 * so a refused request costs no body. Node's own requestTimeout (main.ts) is the limit for every
 * other request; this one is tighter and answers in the error shape.
 */
export function uploadDeadline(ms: number): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const until = Date.now() + ms;
    let expired = false;
    const expire = () => {
      expired = true;
      return new HttpError(408, "REQUEST_TIMEOUT", TOO_SLOW(ms));
    };
    c.set("readUpload", () => readBodyBy(c, until, expire));
    try {
      await next();
    } catch (error) {
      if (!expired) throw error;
    }
    if (expired) {
      c.res = errorJson(c, 408, { code: "REQUEST_TIMEOUT", message: TOO_SLOW(ms) });
      c.res.headers.set("connection", "close");
    }
  };
}

/**
 * The pieces' memory, to transfer to a worker: a piece that shares its memory (a view into a
 * pooled buffer) is copied into memory of its own; the others are handed over as they are.
 */
export const ownedBuffers = (pieces: readonly Uint8Array[]): ArrayBuffer[] =>
  pieces.map((piece) =>
    piece.byteOffset === 0 && piece.byteLength === piece.buffer.byteLength && piece.buffer instanceof ArrayBuffer
      ? piece.buffer
      : (piece.buffer.slice(piece.byteOffset, piece.byteOffset + piece.byteLength) as ArrayBuffer),
  );

const UNREADABLE = "The upload could not be read. Please try again.";

/**
 * The body by `until`, else the error `expire` makes. A body of stated length (what browsers send)
 * is read straight from the socket, in the pieces it arrives in: a megabyte passes through no web
 * stream, which costs the event loop several times more, and is not copied into one buffer, whose
 * allocation, a megabyte at each upload, sets off garbage collection of the whole heap in a burst
 * (docs/decisions/060-bounded-take-parsing.md). Any other
 * body (chunked, whose size the route's limit counts as it streams; a request made in process) is
 * read through the request.
 */
function readBodyBy(c: Context<AppEnv>, until: number, expire: () => HttpError): Promise<Buffer[]> {
  const incoming = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  const stated = c.req.header("content-length") !== undefined && c.req.header("transfer-encoding") === undefined;
  if (!incoming || !stated || incoming.readableDidRead) {
    const read = c.req.arrayBuffer().then((body) => [Buffer.from(body)]);
    read.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(expire()), Math.max(0, until - Date.now()));
    });
    return Promise.race([read, late])
      .catch((error: unknown) => {
        throw error instanceof HttpError ? error : badRequest(UNREADABLE);
      })
      .finally(() => clearTimeout(timer));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const done = (settle: () => void) => {
      clearTimeout(timer);
      incoming.off("data", onData).off("end", onEnd).off("error", onFailed).off("close", onClosed);
      settle();
    };
    const onData = (chunk: Buffer) => chunks.push(chunk);
    const onEnd = () =>
      done(() => {
        // Hono reads this in place of the socket's stream if the route reads the request as well.
        let whole: Buffer | undefined;
        Object.defineProperty(incoming, "rawBody", { get: () => (whole ??= Buffer.concat(chunks)) });
        resolve(chunks);
      });
    const onFailed = () => done(() => reject(badRequest(UNREADABLE)));
    const onClosed = () => {
      if (!incoming.complete) onFailed();
    };
    // Not a destroy of the request: that would close the socket before the 408 is written.
    const timer = setTimeout(
      () =>
        done(() => {
          incoming.pause();
          reject(expire());
        }),
      Math.max(0, until - Date.now()),
    );
    incoming.on("data", onData).on("end", onEnd).on("error", onFailed).on("close", onClosed);
  });
}
