import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * What happened (docs/decisions/075-events.md): a module that decides and writes records an event in
 * the same transaction, so the event exists exactly when the write does. Its payload holds ids, not
 * what a person wrote or who they are: a handler reads the rest from its owner, and finds nothing once
 * an account's deletion took it.
 */
export const eventOutbox = pgTable(
  "event_outbox",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The event's name, "<module>.<what happened>" (contact.message-received). */
    name: text("name").notNull(),
    payload: jsonb("payload").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("event_outbox_created_idx").on(table.createdAt)],
);

/**
 * One row per event and handler, written with the event: the handler's work is done once this row
 * has `delivered_at`, set in the transaction that did the work.
 */
export const eventDelivery = pgTable(
  "event_delivery",
  {
    eventId: uuid("event_id")
      .notNull()
      .references(() => eventOutbox.id, { onDelete: "cascade" }),
    /** "<module>:<event name>": the module that handles it (one handler per module and event). */
    handler: text("handler").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    /** Not tried before then: a dispatcher holds it, or it waits after a failure (the backoff). */
    claimedUntil: timestamp("claimed_until", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    /** Why the last try failed; kept after the last attempt for a person to read. */
    lastError: text("last_error"),
  },
  (table) => [
    primaryKey({ columns: [table.eventId, table.handler] }),
    index("event_delivery_waiting_idx").on(table.createdAt).where(sql`${table.deliveredAt} is null`),
  ],
);
