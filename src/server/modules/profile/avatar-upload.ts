import { createMiddleware } from "hono/factory";
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from "#course/account-rules";
import { limitBody } from "#server/http/body-limit";
import type { AppEnv } from "#server/http/context";
import { badRequest, HttpError, payloadTooLarge } from "#server/http/errors";
import { isBareFileName, MULTIPART_OVERHEAD, mediaTypeOf } from "#server/http/upload";
import type { AvatarUpload } from "./profile.contract";

const TOO_LARGE = "Please upload an image smaller than 1MB.";

/**
 * The types a client may declare for the file: a PNG or JPEG, or octet-stream for a client that
 * does not know. The bytes still decide which of the two it is (avatar-image.ts); a file declared
 * as anything else (HTML, SVG, GIF, or text/plain for a part without a type) is refused whatever it
 * holds (docs/decisions/019-input-property-tests.md).
 */
const DECLARED_TYPES: readonly string[] = [...AVATAR_TYPES, "application/octet-stream"];

/** The upload's own limit, in place of the module's JSON one: a 413 in the error shape. */
export const avatarBodyLimit = limitBody(AVATAR_MAX_BYTES + MULTIPART_OVERHEAD, TOO_LARGE);

/**
 * The avatar upload's form, checked before the handler runs: multipart/form-data with a file in
 * the field "avatar", at most 1 MB, declared as an image Jalan takes, under a bare file name. The
 * handler reads it with `c.req.valid("form")`; the web's typed client sends `{ form: { avatar } }`.
 */
export const avatarForm = createMiddleware<AppEnv, string, { in: { form: AvatarUpload }; out: { form: AvatarUpload } }>(
  async (c, next) => {
    const type = c.req.header("content-type") ?? "";
    if (!type.toLowerCase().startsWith("multipart/form-data")) {
      throw badRequest('Send the image as multipart/form-data in a field named "avatar".');
    }
    const body = Buffer.concat(await c.var.readUpload());
    let file: unknown;
    try {
      // The last part named avatar, as Hono's parseBody keeps it.
      const form = await new Response(new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength), {
        headers: { "content-type": type },
      }).formData();
      file = form.getAll("avatar").at(-1);
    } catch {
      throw badRequest("The upload could not be read. Please try again.");
    }
    if (!(file instanceof File)) throw badRequest('Send the image in a field named "avatar".');
    if (file.size > AVATAR_MAX_BYTES) throw payloadTooLarge(TOO_LARGE);
    const declared = mediaTypeOf(file.type);
    if (!DECLARED_TYPES.includes(declared)) {
      throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "Please upload a PNG or JPEG image.");
    }
    if (!isBareFileName(file.name)) {
      throw badRequest("The file name is not valid. Please rename the file and try again.");
    }
    const upload: AvatarUpload = { avatar: file };
    c.req.addValidatedData("form", upload);
    await next();
  },
);
