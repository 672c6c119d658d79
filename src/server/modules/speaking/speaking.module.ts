import type { RequestLimiter } from "#server/http/request-limit";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { speakingAccountPart } from "./speaking.account-part";
import { speakingRoutes } from "./speaking.routes";
import { createSpeakingService, type SpeakingDeps } from "./speaking.service";
import { createTutorService, type TutorDeps } from "./speaking.tutor";
import { orphanTakesJobs, takeFiles } from "./take-files";
import { sharedTakeReader } from "./take-reader";

export type { TakeReader } from "./take-reader";

/**
 * The learner's voice: takes of the lines they practise, the day's shadowing, a role-play done
 * alone, and the tutors who listen to what learners send: /api/speaking. The take upload sets its
 * own limit (1 MB). Where takes' files live in a bucket, a job sweeps the objects no take holds.
 */
export function speakingModule(deps: SpeakingDeps & TutorDeps & { limiter: RequestLimiter }) {
  // One reader for the process unless a test gives its own: its workers bound the takes read at once.
  const takeReader = deps.takeReader ?? sharedTakeReader();
  const service = createSpeakingService({ ...deps, takeReader });
  const tutor = createTutorService(deps);
  return {
    service,
    /** What tutors do with what learners say; the session room tells a learner through its notices. */
    tutor,
    ...defineModule({
      name: "speaking",
      path: "/speaking",
      bodyLimit: JSON_BODY_LIMIT,
      ownBodyLimit: ["/takes"],
      routes: speakingRoutes(service, tutor, deps.limiter, takeReader),
      account: speakingAccountPart(service, takeFiles(deps.storage, deps.logger)),
      jobs: orphanTakesJobs(deps.storage, deps.db, deps.now),
    }),
  };
}

export type SpeakingModule = ReturnType<typeof speakingModule>;
