import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { ReviewModule } from "#server/modules/review/review.module";
import { learnerRoutes } from "./learners.routes";

/**
 * A learner as staff see them: their progress read, set and reset, their struggles and the phrases
 * pinned into their review, under /api/users/:userId, through the progress and review modules'
 * services. The users module, which owns people and is read by the modules below these two, keeps
 * /api/users's accounts and roles; this module keeps nothing of its own.
 */
export function learnersModule(deps: { progress: ProgressModule["service"]; review: ReviewModule["service"] }) {
  return defineModule({
    name: "learners",
    path: "/users",
    bodyLimit: JSON_BODY_LIMIT,
    routes: learnerRoutes(deps.progress, deps.review),
  });
}

export type LearnersModule = ReturnType<typeof learnersModule>;
