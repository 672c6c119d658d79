import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { studioEvents } from "./studio.contract";
import type { StudioDeps } from "./studio.deps";
import { createStudioDialogues } from "./studio.dialogues";
import { createStudioRecording } from "./studio.recording";
import { createStudioReview } from "./studio.review";
import { studioRoutes } from "./studio.routes";
import { createStudioViews } from "./studio.service";

/**
 * The voice studio: /api/studio (docs/decisions/078-voice-studio.md). Voices record the course's
 * lines as WAV masters; a job on the queue checks each and makes its clip; another voice or an Admin
 * publishes it over the espeak clip, and the public list of published clips tells every page what
 * to play, a story section's whole-dialogue recording rebuilt with its native lines among them (a job
 * of its own). A voice's withdrawn consent takes their clips down (its handler). A voice's takes go with
 * their account (foreign keys); the sweep removes the files no take holds.
 */
export function studioModule(deps: StudioDeps) {
  const views = createStudioViews(deps);
  const recording = createStudioRecording(deps, views);
  const review = createStudioReview(deps, views);
  const dialogues = createStudioDialogues(deps);
  return {
    service: { ...views, upload: recording.upload, review: review.review, unpublish: review.unpublish },
    ...defineModule({
      name: "studio",
      path: "/studio",
      bodyLimit: JSON_BODY_LIMIT,
      ownBodyLimit: ["/days/:chapterId/:dayId/lines/:lineId/takes"],
      routes: studioRoutes(views, recording, review, dialogues),
      jobs: recording.jobs,
      workers: [recording.worker, dialogues.worker],
      emits: [studioEvents.published, studioEvents.unpublished],
      handles: review.handlers,
      account: {
        export: {
          studioTakes: async (reading) => views.exportFor(reading.userId),
        },
      },
    }),
  };
}

export type StudioModule = ReturnType<typeof studioModule>;
