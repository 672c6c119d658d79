import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AVATAR_MAX_BYTES, AVATAR_TYPES } from "#course/account-rules";
import { requireUser } from "#server/auth/session";
import type { AppEnv } from "#server/http/context";
import { badRequest, HttpError, payloadTooLarge } from "#server/http/errors";
import { parseJsonBody } from "#server/http/validation";
import { type ProfileService, profileUpdateSchema } from "./profile.service";

/** Room for the multipart envelope around a 1 MB file. */
const MULTIPART_OVERHEAD = 16 * 1024;

/**
 * The types a client may declare for the file: a PNG or JPEG, or octet-stream for a client that
 * does not know. The bytes still decide which of the two it is (avatar-image.ts); a file declared
 * as anything else (HTML, SVG, GIF, or text/plain for a part without a type) is refused whatever it
 * holds (docs/decisions/019-input-property-tests.md).
 */
const DECLARED_TYPES: readonly string[] = [...AVATAR_TYPES, "application/octet-stream"];

/** No common file system (NTFS, APFS, ext4) allows a file name longer than 255 characters. */
const MAX_FILE_NAME_LENGTH = 255;

/**
 * Whether the part's file name is a bare name, as browsers send it: no folder separator, not `.`
 * or `..`, no control characters, no longer than a file system allows. The server names stored
 * files itself and never uses this name; one that only a crafted request could send is refused
 * all the same.
 */
function isBareFileName(name: string): boolean {
  if (/[/\\\p{Cc}]/u.test(name) || name === "." || name === "..") return false;
  return [...name].length <= MAX_FILE_NAME_LENGTH;
}

export function profileRoutes(profiles: ProfileService) {
  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const me = requireUser(c);
      return c.json({ profile: await profiles.get(me.id) });
    })
    .patch("/", async (c) => {
      const me = requireUser(c);
      const changes = await parseJsonBody(c, profileUpdateSchema);
      return c.json({ profile: await profiles.update(me.id, changes) });
    })
    .put(
      "/avatar",
      bodyLimit({
        maxSize: AVATAR_MAX_BYTES + MULTIPART_OVERHEAD,
        onError: () => {
          throw payloadTooLarge("Please upload an image smaller than 1MB.");
        },
      }),
      async (c) => {
        const me = requireUser(c);
        const type = c.req.header("content-type") ?? "";
        if (!type.toLowerCase().startsWith("multipart/form-data")) {
          throw badRequest('Send the image as multipart/form-data in a field named "avatar".');
        }
        let file: unknown;
        try {
          file = (await c.req.parseBody()).avatar;
        } catch {
          throw badRequest("The upload could not be read. Please try again.");
        }
        if (!(file instanceof File)) throw badRequest('Send the image in a field named "avatar".');
        if (file.size > AVATAR_MAX_BYTES) throw payloadTooLarge("Please upload an image smaller than 1MB.");
        const declared = file.type.split(";")[0]!.trim().toLowerCase();
        if (!DECLARED_TYPES.includes(declared)) {
          throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "Please upload a PNG or JPEG image.");
        }
        if (!isBareFileName(file.name)) {
          throw badRequest("The file name is not valid. Please rename the file and try again.");
        }
        const bytes = new Uint8Array(await file.arrayBuffer());
        return c.json({ profile: await profiles.replaceAvatar(me.id, bytes) });
      },
    );
}
