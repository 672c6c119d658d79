import type { Chapter } from "#course/course";
import type { Database } from "#server/db/client";
import type { RequestLimiter } from "#server/http/request-limit";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { ProgressModule } from "#server/modules/progress/progress.module";
import { answersRoutes } from "./answers.routes";
import { createAnswersService } from "./answers.service";

/** Graded answers to a day's practice set: /api/answers. Answering moves the set's task forward through progress. */
export function answersModule(deps: {
  db: Database;
  course: readonly Chapter[];
  progress: ProgressModule["service"];
  limiter: RequestLimiter;
}) {
  const service = createAnswersService(deps);
  return {
    service,
    ...defineModule({
      name: "answers",
      path: "/answers",
      bodyLimit: JSON_BODY_LIMIT,
      routes: answersRoutes(service, deps.limiter),
      account: { export: { answers: async ({ userId }) => (await service.exportFor(userId)).answers } },
    }),
  };
}

export type AnswersModule = ReturnType<typeof answersModule>;
