import type { Chapter } from "#course/course";
import type { Database } from "#server/db/client";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { progressRoutes } from "./progress.routes";
import { createProgressService } from "./progress.service";

/**
 * The signed-in user's own progress: /api/progress. Staff reach any learner's through the users
 * module, which calls this module's service.
 */
export function progressModule(deps: { db: Database; course: readonly Chapter[] }) {
  const service = createProgressService(deps.db, deps.course);
  return {
    service,
    ...defineModule({
      name: "progress",
      path: "/progress",
      bodyLimit: JSON_BODY_LIMIT,
      routes: progressRoutes(service, deps.course),
    }),
  };
}

export type ProgressModule = ReturnType<typeof progressModule>;
