import type { ByteRange, OpenedFile, UnsatisfiableRange } from "#server/storage/storage";

/**
 * The one byte range a Range header names, or undefined for none. Several ranges, another unit or
 * a malformed header are ignored, as RFC 9110 allows: the whole file is sent.
 */
export function byteRangeOf(header: string | undefined): ByteRange | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? "");
  if (!match || (!match[1] && !match[2])) return undefined;
  if (!match[1]) return { suffix: Number(match[2]) };
  const start = Number(match[1]);
  if (!match[2]) return { start };
  const end = Number(match[2]);
  return end < start ? undefined : { start, end };
}

/**
 * A stored file as an answer: 200 with the whole of it, 206 with the range asked for (Content-Range),
 * or 416 for a range past its end. `headers` are the caller's (type, caching, nosniff...). A HEAD
 * request gets the headers only, and the stream opened for it is closed: Hono drops a HEAD answer's
 * body without reading it, which would leave a bucket's response unread.
 */
export function fileResponse(
  request: { method: string; ranged: boolean },
  file: OpenedFile | UnsatisfiableRange,
  headers: Record<string, string>,
): Response {
  const common = { ...headers, "accept-ranges": "bytes" };
  if ("unsatisfiable" in file) {
    return new Response(null, { status: 416, headers: { ...common, "content-range": `bytes */${file.size}` } });
  }
  const length = String(file.end - file.start + 1);
  let body: OpenedFile["body"] | null = file.body;
  if (request.method === "HEAD") {
    if (body instanceof ReadableStream) void body.cancel();
    body = null;
  }
  if (!request.ranged) return new Response(body, { status: 200, headers: { ...common, "content-length": length } });
  return new Response(body, {
    status: 206,
    headers: { ...common, "content-range": `bytes ${file.start}-${file.end}/${file.size}`, "content-length": length },
  });
}
