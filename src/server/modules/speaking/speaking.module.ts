import type { RequestLimiter } from "#server/http/request-limit";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { speakingRoutes } from "./speaking.routes";
import { createSpeakingService, type SpeakingDeps } from "./speaking.service";

/**
 * The learner's voice: takes of the lines they practise, the day's shadowing and a role-play done
 * alone: /api/speaking. The take upload sets its own limit (1 MB).
 */
export function speakingModule(deps: SpeakingDeps & { limiter: RequestLimiter }) {
  const service = createSpeakingService(deps);
  return {
    service,
    ...defineModule({
      name: "speaking",
      path: "/speaking",
      bodyLimit: JSON_BODY_LIMIT,
      ownBodyLimit: ["/takes"],
      routes: speakingRoutes(service, deps.limiter),
    }),
  };
}

export type SpeakingModule = ReturnType<typeof speakingModule>;
