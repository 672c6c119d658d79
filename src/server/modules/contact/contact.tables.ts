import { index, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { user } from "#server/db/auth.tables";
import { createdAt } from "#server/db/columns";

export const contactMessage = pgTable(
  "contact_message",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id").references(() => user.id, { onDelete: "cascade" }),
    fullName: text("full_name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    /** HMAC of the sender's network address (never the address itself): the contact form's rate-limit key. */
    clientKey: text("client_key"),
    createdAt: createdAt(),
  },
  (table) => [
    index("contact_message_created_at_idx").on(table.createdAt),
    index("contact_message_client_key_created_at_idx").on(table.clientKey, table.createdAt),
  ],
);
