/**
 * Every table of the app, gathered from the files that define them by area, for drizzle (db/client.ts),
 * drizzle-kit (drizzle.config.ts) and the repositories, which import their tables from here.
 */

export * from "#server/events/events.tables";
export * from "./schema-accounts";
export * from "./schema-learning";
export * from "./schema-sessions";
export * from "./schema-speaking";
