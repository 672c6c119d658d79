import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { AVATAR_MAX_BYTES } from "../../../course/account-rules";
import { requireUser } from "../../auth/session";
import type { AppEnv } from "../../http/context";
import { badRequest, payloadTooLarge } from "../../http/errors";
import { parseJsonBody } from "../../http/validation";
import { type ProfileService, profileUpdateSchema } from "./profile.service";

/** Room for the multipart envelope around a 1 MB file. */
const MULTIPART_OVERHEAD = 16 * 1024;

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
        const bytes = new Uint8Array(await file.arrayBuffer());
        return c.json({ profile: await profiles.replaceAvatar(me.id, bytes) });
      },
    );
}
