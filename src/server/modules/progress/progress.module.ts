import type { Chapter } from "#course/course";
import type { Database } from "#server/db/client";
import type { ExportReading } from "#server/modules/module";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { progressRoutes } from "./progress.routes";
import { createProgressService } from "./progress.service";

/**
 * The signed-in user's own progress: /api/progress. Staff reach any learner's through the users
 * module, which calls this module's service.
 */
export function progressModule(deps: { db: Database; course: readonly Chapter[] }) {
  const service = createProgressService(deps.db, deps.course);
  /** Its part of Export My Data, read once for both its sections. */
  const exported = (reading: ExportReading) => reading.once("progress", () => service.exportFor(reading.userId));
  return {
    service,
    ...defineModule({
      name: "progress",
      path: "/progress",
      bodyLimit: JSON_BODY_LIMIT,
      routes: progressRoutes(service, deps.course),
      account: {
        export: {
          progress: async (reading) => (await exported(reading)).progress,
          completedDays: async (reading) => (await exported(reading)).completedDays,
        },
      },
    }),
  };
}

export type ProgressModule = ReturnType<typeof progressModule>;
