import type { Logger } from "pino";
import type { Database } from "#server/db/client";
import type { Mailer } from "#server/mail/mailer";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { UsersModule } from "#server/modules/users/users.module";
import { contactRoutes } from "./contact.routes";
import { createContactService } from "./contact.service";

/** The contact form: /api/contact, open to visitors and rate-limited. Admins read it through the admin module. */
export function contactModule(deps: {
  db: Database;
  mailer: Mailer;
  secret: string;
  publicUrl: string;
  logger: Logger;
  users: UsersModule["service"];
}) {
  const service = createContactService(deps);
  return {
    service,
    ...defineModule({ name: "contact", path: "/contact", bodyLimit: JSON_BODY_LIMIT, routes: contactRoutes(service) }),
  };
}

export type ContactModule = ReturnType<typeof contactModule>;
