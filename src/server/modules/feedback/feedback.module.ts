import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { feedbackRoutes } from "./feedback.routes";
import { createFeedbackService, type FeedbackDeps } from "./feedback.service";

/** A tutor's notes to a learner, the learner's own list, and staff's record of what a learner received: /api/feedback. */
export function feedbackModule(deps: FeedbackDeps) {
  const service = createFeedbackService(deps);
  return {
    service,
    ...defineModule({
      name: "feedback",
      path: "/feedback",
      bodyLimit: JSON_BODY_LIMIT,
      routes: feedbackRoutes(service),
      account: {
        export: { feedbackReceived: async ({ userId }) => (await service.exportFor(userId)).feedbackReceived },
      },
    }),
  };
}

export type FeedbackModule = ReturnType<typeof feedbackModule>;
