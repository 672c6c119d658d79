import type { Context } from "hono";
import type { AppEnv } from "#server/http/context";
import { byteRangeOf, fileResponse } from "#server/http/file-response";
import type { ByteRange, OpenedFile, UnsatisfiableRange } from "#server/storage/storage";
import type { TakeRow } from "./speaking.repository";

/** The byte range a take's player asks for, if any. */
export const takeRangeOf = (c: Context<AppEnv>): ByteRange | undefined => byteRangeOf(c.req.header("range"));

/**
 * A take's audio as a media element asks for it: the whole file, or the one byte range it names
 * (Safari plays media only from servers that answer ranges), streamed from the storage. It is the
 * learner's own voice: like every API answer it is sent `no-store` (src/server/app.ts), so no
 * cache, shared or the browser's, keeps it.
 */
export function audioResponse(
  c: Context<AppEnv>,
  take: TakeRow,
  file: OpenedFile | UnsatisfiableRange,
  range: ByteRange | undefined,
): Response {
  return fileResponse({ method: c.req.method, ranged: range !== undefined }, file, {
    "content-type": take.contentType,
    "x-content-type-options": "nosniff",
  });
}
