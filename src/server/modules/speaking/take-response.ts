import type { Context } from "hono";
import type { AppEnv } from "#server/http/context";
import type { TakeRow } from "./speaking.repository";

/**
 * A take's audio as a media element asks for it: the whole file, or the one byte range it names
 * (Safari plays media only from servers that answer ranges). It is the learner's own voice: like
 * every API answer it is sent `no-store` (src/server/app.ts), so no cache, shared or the browser's,
 * keeps it.
 */
export function audioResponse(c: Context<AppEnv>, take: TakeRow, bytes: Buffer): Response {
  const headers: Record<string, string> = { "content-type": take.contentType, "accept-ranges": "bytes" };
  const range = /^bytes=(\d*)-(\d*)$/.exec(c.req.header("range") ?? "");
  if (range && (range[1] || range[2])) {
    const size = bytes.length;
    let start = range[1] ? Number(range[1]) : size - Number(range[2]);
    let end = range[1] && range[2] ? Number(range[2]) : size - 1;
    start = Math.max(0, start);
    end = Math.min(end, size - 1);
    if (start > end || start >= size) {
      return new Response(null, { status: 416, headers: { ...headers, "content-range": `bytes */${size}` } });
    }
    const part = bytes.subarray(start, end + 1);
    return new Response(new Uint8Array(part), {
      status: 206,
      headers: { ...headers, "content-range": `bytes ${start}-${end}/${size}`, "content-length": String(part.length) },
    });
  }
  return new Response(new Uint8Array(bytes), {
    status: 200,
    headers: { ...headers, "content-length": String(bytes.length) },
  });
}
