import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";

/**
 * Every email the app sends, written before it is sent, so no message is lost with a process. With
 * SMTP_URL, any instance delivers waiting rows (src/server/mail/mailer.ts); without it, this table is
 * the outbox a developer reads (`npm run outbox`).
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    /** The link the message is about (verification, reset): it carries a one-time token. */
    link: text("link"),
    /** Header fields the message is sent with beyond From, To and Subject (a reminder's List-Unsubscribe). */
    headers: jsonb("headers").$type<Record<string, string>>(),
    /** A calendar invite sent with the message (text/calendar, RFC 5546's method), such as a booking's. */
    calendar: jsonb("calendar").$type<{ method: "REQUEST" | "CANCEL"; content: string }>(),
    createdAt: createdAt(),
    /** When the SMTP server accepted it; null while it waits, and always without SMTP_URL. */
    sentAt: timestamp("sent_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    /** An instance is sending it until then; after that another may try (the first one died). */
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    lastError: text("last_error"),
  },
  (table) => [index("mail_outbox_waiting_idx").on(table.createdAt).where(sql`${table.sentAt} is null`)],
);
