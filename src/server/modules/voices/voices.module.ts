import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { voicesEvents } from "./voices.contract";
import { voicesRoutes } from "./voices.routes";
import { createVoicesService, type VoicesDeps } from "./voices.service";

/**
 * Who records the course: /api/voices (an Admin's grants; a voice's own consent). Its service's
 * `mayRecord` is what the studio asks before it takes a recording. A withdrawn consent is the event
 * `voices.consent-withdrawn`, which no module handles yet: the studio's clips will (decision 077).
 * The grant and consents go with the account (foreign keys); Export My Data holds them.
 */
export function voicesModule(deps: VoicesDeps) {
  const service = createVoicesService(deps);
  return {
    service,
    ...defineModule({
      name: "voices",
      path: "/voices",
      bodyLimit: JSON_BODY_LIMIT,
      routes: voicesRoutes(service),
      emits: [voicesEvents.consentWithdrawn],
      account: {
        export: {
          voice: async (reading) => (await reading.once("voices", () => service.exportFor(reading.userId))).voice,
          voiceConsents: async (reading) =>
            (await reading.once("voices", () => service.exportFor(reading.userId))).voiceConsents,
        },
      },
    }),
  };
}

export type VoicesModule = ReturnType<typeof voicesModule>;
