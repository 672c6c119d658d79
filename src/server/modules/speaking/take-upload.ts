import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { TAKE_MAX_BYTES, TAKE_TYPES } from "#course/speaking";
import type { AppEnv } from "#server/http/context";
import { badRequest, HttpError, issuesOf, payloadTooLarge } from "#server/http/errors";
import { isBareFileName, MULTIPART_OVERHEAD, mediaTypeOf } from "#server/http/upload";
import { type TakeUpload, takeFieldsSchema } from "./speaking.contract";

const TOO_LARGE = "The recording is larger than 1 MB. Please record a shorter take.";

/**
 * The types a client may declare for a take: what MediaRecorder makes (audio/webm, audio/mp4, with
 * or without codecs), or octet-stream for a client that does not say. The bytes decide what it is
 * (take-audio.ts); a part declared as anything else is refused whatever it holds.
 */
const DECLARED_TYPES: readonly string[] = [...TAKE_TYPES, "video/webm", "application/octet-stream"];

/** The upload's own limit, in place of the module's JSON one: a 413 in the error shape. */
export const takeBodyLimit = bodyLimit({
  maxSize: TAKE_MAX_BYTES + MULTIPART_OVERHEAD,
  onError: () => {
    throw payloadTooLarge(TOO_LARGE);
  },
});

/**
 * A take's upload, checked before the handler runs: multipart/form-data with the file in the field
 * "take" (at most 1 MB, declared as audio MediaRecorder makes, under a bare file name) and the
 * line it is a take of in the fields chapterId, dayId and lineId.
 */
export const takeForm = createMiddleware<AppEnv, string, { in: { form: TakeUpload }; out: { form: TakeUpload } }>(
  async (c, next) => {
    const type = c.req.header("content-type") ?? "";
    if (!type.toLowerCase().startsWith("multipart/form-data")) {
      throw badRequest('Send the recording as multipart/form-data in a field named "take".');
    }
    let body: Record<string, unknown>;
    try {
      body = await c.req.parseBody();
    } catch {
      throw badRequest("The upload could not be read. Please try again.");
    }
    const file = body.take;
    if (!(file instanceof File)) throw badRequest('Send the recording in a field named "take".');
    // Too large is said first, whatever else is wrong: recording again, shorter, is the way out.
    if (file.size > TAKE_MAX_BYTES) throw payloadTooLarge(TOO_LARGE);
    const fields = takeFieldsSchema.safeParse({ chapterId: body.chapterId, dayId: body.dayId, lineId: body.lineId });
    if (!fields.success) throw badRequest("Say which line this is a take of.", issuesOf(fields.error));
    if (!DECLARED_TYPES.includes(mediaTypeOf(file.type))) {
      throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "Please send a recording in WebM or MP4.");
    }
    if (!isBareFileName(file.name)) {
      throw badRequest("The file name is not valid. Please rename the file and try again.");
    }
    const upload: TakeUpload = { ...fields.data, take: file };
    c.req.addValidatedData("form", upload);
    await next();
  },
);
