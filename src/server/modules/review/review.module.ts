import type { Chapter } from "#course/course";
import type { Database } from "#server/db/client";
import type { RequestLimiter } from "#server/http/request-limit";
import type { AnswersModule } from "#server/modules/answers/answers.module";
import type { ExportReading } from "#server/modules/module";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import { reviewRoutes } from "./review.routes";
import { createReviewService, type ReviewService } from "./review.service";

/**
 * The signed-in learner's review of what they met: /api/review. Staff read and pin a learner's
 * review through the users module; the reminders module sends the daily reminder. `service`: one
 * made already (tests pass one on a fake clock).
 */
export function reviewModule(deps: {
  db: Database;
  course: readonly Chapter[];
  settings: SettingsModule["service"];
  progress: ProgressModule["service"];
  answers: AnswersModule["service"];
  limiter: RequestLimiter;
  now?: () => Date;
  service?: ReviewService;
}) {
  const service = deps.service ?? createReviewService(deps);
  /** Its part of Export My Data, read once for both its sections. */
  const exported = (reading: ExportReading) => reading.once("review", () => service.exportFor(reading.userId));
  return {
    service,
    ...defineModule({
      name: "review",
      path: "/review",
      bodyLimit: JSON_BODY_LIMIT,
      routes: reviewRoutes(service, deps.limiter),
      account: {
        export: {
          reviewLog: async (reading) => (await exported(reading)).reviewLog,
          reviewCards: async (reading) => (await exported(reading)).reviewCards,
        },
      },
    }),
  };
}

export type ReviewModule = ReturnType<typeof reviewModule>;
