import type { Chapter } from "#course/course";
import type { Database } from "#server/db/client";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { reviewRoutes } from "./review.routes";
import { createReviewService, type ReviewService } from "./review.service";

/**
 * The signed-in learner's review of what they met: /api/review. Staff read and pin a learner's
 * review through the users module; the reminders module sends the daily reminder.
 */
export function reviewModule(deps: { db: Database; course: readonly Chapter[]; service?: ReviewService }) {
  const service = deps.service ?? createReviewService({ db: deps.db, course: deps.course });
  return {
    service,
    ...defineModule({ name: "review", path: "/review", bodyLimit: JSON_BODY_LIMIT, routes: reviewRoutes(service) }),
  };
}

export type ReviewModule = ReturnType<typeof reviewModule>;
