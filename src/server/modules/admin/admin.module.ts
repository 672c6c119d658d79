import type { ContactModule } from "#server/modules/contact/contact.module";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { adminRoutes } from "./admin.routes";

/** What only Admins read: /api/admin (the contact inbox). */
export function adminModule(deps: { contact: ContactModule["service"] }) {
  return defineModule({ name: "admin", path: "/admin", bodyLimit: JSON_BODY_LIMIT, routes: adminRoutes(deps.contact) });
}

export type AdminModule = ReturnType<typeof adminModule>;
