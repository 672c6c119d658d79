import { pgTable, text } from "drizzle-orm/pg-core";
import { bytea, createdAt } from "./columns";

/** Files behind the storage interface (src/server/storage/storage.ts): avatars today. Keys are made by the server. */
export const storedFile = pgTable("stored_file", {
  key: text("key").primaryKey(),
  contentType: text("content_type").notNull(),
  data: bytea("data").notNull(),
  createdAt: createdAt(),
});
