import type { Chapter } from "#course/course";
import type { Database } from "#server/db/client";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { ReviewModule } from "#server/modules/review/review.module";
import { feedbackRoutes } from "./feedback.routes";
import { createFeedbackService } from "./feedback.service";

/** A tutor's notes to a learner, and the learner's own list: /api/feedback. */
export function feedbackModule(deps: { db: Database; course: readonly Chapter[]; review: ReviewModule["service"] }) {
  const service = createFeedbackService(deps.db, deps.course, deps.review);
  return {
    service,
    ...defineModule({
      name: "feedback",
      path: "/feedback",
      bodyLimit: JSON_BODY_LIMIT,
      routes: feedbackRoutes(service),
    }),
  };
}

export type FeedbackModule = ReturnType<typeof feedbackModule>;
