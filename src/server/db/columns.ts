import { customType, timestamp } from "drizzle-orm/pg-core";

/** Column helpers the tables share, wherever they are defined (db/schema.ts gathers the tables). */

/** A list of constants as SQL string literals, for a check constraint. */
export const quoted = (values: readonly string[]) => values.map((value) => `'${value}'`).join(", ");

export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });
