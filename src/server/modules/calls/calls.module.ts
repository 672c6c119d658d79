import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { callsEvents } from "./calls.contract";
import { callRoutes } from "./calls.routes";
import { type CallsDeps, createCalls } from "./calls.service";

/** How often old signals are forgotten (a job on the queue, once across instances). */
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * A booked session's room: a one-to-one call in Jalan, signalled through PostgreSQL: /api/calls. Its
 * end is an event (calls.session-ended), which the speaking module handles: the learner's notice and email.
 */
export function callsModule(deps: CallsDeps) {
  const service = createCalls(deps);
  return {
    service,
    ...defineModule({
      name: "calls",
      path: "/calls",
      bodyLimit: JSON_BODY_LIMIT,
      routes: callRoutes(service),
      emits: [callsEvents.sessionEnded],
      account: {
        export: {
          callMessages: ({ userId }) => service.exportFor(userId),
          sessionRecords: ({ userId }) => service.recordsExportFor(userId),
          sessionRatings: ({ userId }) => service.held.exportFor(userId),
        },
        // What a leaving learner wrote of their sessions goes with them (decision 064).
        close: async (userId) => ({ inTransaction: (tx) => service.forgetRatingsOf(tx, userId) }),
      },
      jobs: [{ name: "call signals pruned", everyMs: PRUNE_EVERY_MS, run: service.prune }],
    }),
  };
}

export type CallsModule = ReturnType<typeof callsModule>;
