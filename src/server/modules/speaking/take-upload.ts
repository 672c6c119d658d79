import { createMiddleware } from "hono/factory";
import { TAKE_MAX_BYTES, TAKE_TYPES } from "#course/speaking";
import { limitBody } from "#server/http/body-limit";
import type { AppEnv } from "#server/http/context";
import { badRequest, HttpError, issuesOf, payloadTooLarge } from "#server/http/errors";
import { isBareFileName, MULTIPART_OVERHEAD, mediaTypeOf, ownedBuffers } from "#server/http/upload";
import { type TakeUpload, takeFieldsSchema } from "./speaking.contract";
import type { TakeAudio } from "./take-audio";
import type { TakeReader } from "./take-reader";

const TOO_LARGE = "The recording is larger than 1 MB. Please record a shorter take.";
const UNREADABLE = "The upload could not be read. Please try again.";

/**
 * The types a client may declare for a take: what MediaRecorder makes (audio/webm, audio/mp4, with
 * or without codecs), or octet-stream for a client that does not say. The bytes decide what it is
 * (take-audio.ts); a part declared as anything else is refused whatever it holds.
 */
const DECLARED_TYPES: readonly string[] = [...TAKE_TYPES, "video/webm", "application/octet-stream"];

/**
 * The upload's own limit, in place of the module's JSON one: a 413 in the error shape, judged by
 * the stated length without touching the body, which the route reads straight from the socket.
 */
export const takeBodyLimit = limitBody(TAKE_MAX_BYTES + MULTIPART_OVERHEAD, TOO_LARGE);

/** The upload as the handler reads it: the line, the take's bytes and what its reading found. */
export interface TakeUploadRead {
  chapterId: string;
  dayId: string;
  lineId: string;
  bytes: Buffer;
  audio: TakeAudio | null;
}

/**
 * A take's upload, checked before the handler runs: multipart/form-data with the file in the field
 * "take" (at most 1 MB, declared as audio MediaRecorder makes, under a bare file name) and the
 * line it is a take of in the fields chapterId, dayId and lineId. The body is parsed, and the take
 * read, by `reader`'s workers: the event loop only gathers the bytes (take-form.ts).
 */
export const takeForm = (reader: TakeReader) =>
  createMiddleware<AppEnv, string, { in: { form: TakeUpload }; out: { form: TakeUploadRead } }>(async (c, next) => {
    const type = c.req.header("content-type") ?? "";
    if (!type.toLowerCase().startsWith("multipart/form-data")) {
      throw badRequest('Send the recording as multipart/form-data in a field named "take".');
    }
    // The worker takes the body's pieces over, each in memory of its own.
    const form = await reader.readForm(ownedBuffers(await c.var.readUpload()), type);
    if ("unreadable" in form) throw badRequest(UNREADABLE);
    const { take } = form;
    if (!take) throw badRequest('Send the recording in a field named "take".');
    // Too large is said first, whatever else is wrong: recording again, shorter, is the way out.
    if (take.size > TAKE_MAX_BYTES) throw payloadTooLarge(TOO_LARGE);
    const { chapterId, dayId, lineId } = form.fields;
    const fields = takeFieldsSchema.safeParse({
      chapterId: chapterId ?? undefined,
      dayId: dayId ?? undefined,
      lineId: lineId ?? undefined,
    });
    if (!fields.success) throw badRequest("Say which line this is a take of.", issuesOf(fields.error));
    if (!DECLARED_TYPES.includes(mediaTypeOf(take.type))) {
      throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "Please send a recording in WebM or MP4.");
    }
    if (!isBareFileName(take.name)) {
      throw badRequest("The file name is not valid. Please rename the file and try again.");
    }
    const bytes = Buffer.from(take.bytes.buffer, take.bytes.byteOffset, take.bytes.byteLength);
    c.req.addValidatedData("form", { ...fields.data, bytes, audio: take.audio });
    await next();
  });
