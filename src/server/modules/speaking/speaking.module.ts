import type { Notifications } from "#server/db/notifications";
import { on } from "#server/events/events";
import type { RequestLimiter } from "#server/http/request-limit";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { speakingAccountPart } from "./speaking.account-part";
import { sessionEndedEvent, speakingEvents } from "./speaking.contract";
import { type HandlerDeps, speakingHandlers } from "./speaking.handlers";
import { createQueueChanges } from "./speaking.queue-changes";
import { createSpeakingRepository } from "./speaking.repository";
import { speakingRoutes } from "./speaking.routes";
import { createSpeakingService, type SpeakingDeps } from "./speaking.service";
import { createTutorService, type TutorDeps } from "./speaking.tutor";
import { orphanTakesJobs, takeFiles } from "./take-files";
import { sharedTakeReader } from "./take-reader";

export type { TakeReader } from "./take-reader";

/** What the speaking module is made of, beside its services' deps. */
interface SpeakingModuleDeps extends SpeakingDeps, TutorDeps, HandlerDeps {
  limiter: RequestLimiter;
  /** This instance's LISTEN connection: the tutors' queue hears of changes on any instance through it. */
  notifications: Pick<Notifications, "subscribe" | "onReconnect">;
  /** How often an open queue stream sends a comment (QUEUE_HEARTBEAT_MS); tests make it short. */
  queueHeartbeatMs?: number;
}

/**
 * The learner's voice: takes of the lines they practise, the day's shadowing, a role-play done
 * alone, and the tutors who listen to what learners send: /api/speaking. The take upload sets its
 * own limit (1 MB). Where takes' files live in a bucket, a job sweeps the objects no take holds.
 * What the learner hears of a tutor (a notice, an email) and the pushes to the tutors' open queues
 * are its handlers of events: its own, and the calls module's end of a session.
 */
export function speakingModule(deps: SpeakingModuleDeps) {
  // One reader for the process unless a test gives its own: its workers bound the takes read at once.
  const takeReader = deps.takeReader ?? sharedTakeReader();
  const service = createSpeakingService({ ...deps, takeReader });
  const tutor = createTutorService(deps);
  const handlers = speakingHandlers({ ...deps, rows: createSpeakingRepository(deps.db) });
  const queueChanges = createQueueChanges({ ...deps, heartbeatMs: deps.queueHeartbeatMs });
  return {
    service,
    /** What tutors do with what learners say. */
    tutor,
    /** The open streams of the tutors' queue: closed when the instance shuts down. */
    queueChanges,
    ...defineModule({
      name: "speaking",
      path: "/speaking",
      bodyLimit: JSON_BODY_LIMIT,
      ownBodyLimit: ["/takes"],
      routes: speakingRoutes(service, tutor, deps.limiter, takeReader, queueChanges),
      emits: [speakingEvents.submitted, speakingEvents.submissionReviewed],
      handles: [
        on(sessionEndedEvent, handlers.sessionEnded),
        on(speakingEvents.submitted, handlers.submitted),
        on(speakingEvents.submissionReviewed, handlers.submissionReviewed),
      ],
      account: speakingAccountPart(service, takeFiles(deps.storage, deps.logger)),
      jobs: orphanTakesJobs(deps.storage, deps.db, deps.now),
    }),
  };
}

export type SpeakingModule = ReturnType<typeof speakingModule>;
