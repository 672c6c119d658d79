import type { Database } from "#server/db/client";
import { type Emitter, on } from "#server/events/events";
import type { Mailer } from "#server/mail/mailer";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { UsersModule } from "#server/modules/users/users.module";
import { contactEvents } from "./contact.contract";
import { contactRoutes } from "./contact.routes";
import { createContactService } from "./contact.service";

/**
 * The contact form: /api/contact, open to visitors and rate-limited. Admins read it through the admin
 * module, and hear of each message by email: the handler of the event its arrival records.
 */
export function contactModule(deps: {
  db: Database;
  mailer: Mailer;
  secret: string;
  publicUrl: string;
  users: UsersModule["service"];
  events: Emitter;
}) {
  const service = createContactService(deps);
  return {
    service,
    ...defineModule({
      name: "contact",
      path: "/contact",
      bodyLimit: JSON_BODY_LIMIT,
      routes: contactRoutes(service),
      emits: [contactEvents.messageReceived],
      handles: [on(contactEvents.messageReceived, service.tellStaff)],
      account: { export: { contactMessages: async ({ userId }) => (await service.exportFor(userId)).contactMessages } },
    }),
  };
}

export type ContactModule = ReturnType<typeof contactModule>;
