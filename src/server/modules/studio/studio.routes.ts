import { createHash } from "node:crypto";
import { type Context, Hono } from "hono";
import { STUDIO_MASTER_MAX_BYTES } from "#course/studio";
import { requireUser, signedIn } from "#server/auth/session";
import { limitBody } from "#server/http/body-limit";
import type { AppEnv } from "#server/http/context";
import { badRequest, HttpError } from "#server/http/errors";
import { byteRangeOf, fileResponse } from "#server/http/file-response";
import { mediaTypeOf } from "#server/http/upload";
import { jsonBody, queryOf } from "#server/http/validation";
import type { ByteRange, OpenedFile, UnsatisfiableRange } from "#server/storage/storage";
import {
  type PublishedClips,
  type StudioDay,
  type StudioDays,
  type StudioReviewList,
  type StudioTake,
  takeReviewSchema,
  takeTrimSchema,
} from "./studio.contract";
import type { StudioDialogues } from "./studio.dialogues";
import type { StudioRecording } from "./studio.recording";
import type { StudioReview } from "./studio.review";
import type { StudioViews } from "./studio.service";

const IMMUTABLE = "public, max-age=31536000, immutable";

/** The master's own limit, in place of the module's JSON one: a 413 judged by the stated length. */
export const masterBodyLimit = limitBody(
  STUDIO_MASTER_MAX_BYTES,
  "The recording is larger than 12 MB. Trim it, or record the line on its own.",
);

/**
 * The voice studio (docs/decisions/078-voice-studio.md). Who records and who reviews is the
 * service's to decide (voices' mayRecord, an Admin); the user always comes from the session.
 */
export function studioRoutes(
  views: StudioViews,
  recording: StudioRecording,
  review: StudioReview,
  dialogues: StudioDialogues,
) {
  return (
    new Hono<AppEnv>()
      .get("/days", signedIn, async (c) => {
        const body: StudioDays = { days: await views.days(requireUser(c)) };
        return c.json(body);
      })
      .get("/days/:chapterId/:dayId", signedIn, async (c) => {
        const body: StudioDay = await views.day(requireUser(c), c.req.param());
        return c.json(body);
      })
      .post(
        "/days/:chapterId/:dayId/lines/:lineId/takes",
        masterBodyLimit,
        signedIn,
        queryOf(takeTrimSchema),
        async (c) => {
          if (mediaTypeOf(c.req.header("content-type") ?? "") !== "audio/wav") {
            throw new HttpError(
              415,
              "UNSUPPORTED_MEDIA_TYPE",
              "Send the recording as WAV audio (Content-Type audio/wav).",
            );
          }
          const bytes = Buffer.concat(await c.var.readUpload());
          if (bytes.length === 0) throw badRequest("The recording is empty. Record the line again.");
          const take = await recording.upload(requireUser(c), c.req.param(), c.req.valid("query"), bytes);
          return c.json({ take } satisfies { take: StudioTake }, 202);
        },
      )
      .get("/takes/:takeId", signedIn, async (c) => {
        const take: StudioTake = await views.take(requireUser(c), c.req.param("takeId"));
        return c.json({ take });
      })
      .get("/takes/:takeId/audio", signedIn, async (c) => {
        const form = c.req.query("form") === "clip" ? "clip" : "master";
        const range = byteRangeOf(c.req.header("range"));
        const { file, contentType } = await recording.audio(requireUser(c), c.req.param("takeId"), form, range);
        return fileResponse({ method: c.req.method, ranged: range !== undefined }, file, {
          "content-type": contentType,
          "x-content-type-options": "nosniff",
        });
      })
      .get("/review", signedIn, async (c) => {
        const body: StudioReviewList = await views.reviewList(requireUser(c));
        return c.json(body);
      })
      .post("/takes/:takeId/review", signedIn, jsonBody(takeReviewSchema), async (c) => {
        const take: StudioTake = await review.review(requireUser(c), c.req.param("takeId"), c.req.valid("json"));
        return c.json({ take });
      })
      .delete("/days/:chapterId/:dayId/lines/:lineId/clip", signedIn, async (c) => {
        const take: StudioTake = await review.unpublish(requireUser(c), c.req.param());
        return c.json({ take });
      })
      .get("/published", async (c) => {
        const body: PublishedClips = await views.published();
        const etag = `"${createHash("sha256").update(JSON.stringify(body)).digest("base64url").slice(0, 27)}"`;
        // Revalidated on every use, so a clip published or taken down is heard at once.
        c.header("cache-control", "no-cache");
        c.header("etag", etag);
        if (c.req.header("if-none-match") === etag) return c.body(null, 304);
        return c.json(body);
      })
      // One URL per take: a published clip never changes, and a new recording is a new URL.
      .get("/clips/:takeId", (c) => publicAudio(c, (range) => review.clip(c.req.param("takeId"), range)))
      // One URL per build: a rebuilt recording is a new URL.
      .get("/dialogues/:dialogueId", (c) => publicAudio(c, (range) => dialogues.file(c.req.param("dialogueId"), range)))
  );
}

/** A published clip or recording, or the range of it asked for: public, and cached for good. */
async function publicAudio(
  c: Context<AppEnv>,
  open: (range: ByteRange | undefined) => Promise<OpenedFile | UnsatisfiableRange>,
) {
  const range = byteRangeOf(c.req.header("range"));
  return fileResponse({ method: c.req.method, ranged: range !== undefined }, await open(range), {
    "content-type": "audio/webm",
    "x-content-type-options": "nosniff",
    "cache-control": IMMUTABLE,
  });
}
