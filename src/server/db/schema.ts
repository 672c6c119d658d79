/**
 * Every table of the app, gathered for drizzle (db/client.ts, Better Auth's adapter), drizzle-kit
 * (drizzle.config.ts), the scripts and the tests. Each table is defined beside the code that writes it
 * (docs/decisions/074-tables-beside-their-owners.md): a module's in `<module>.tables.ts`, which only
 * that module's repositories import (scripts/walls.ts); the tables no module owns (Better Auth's
 * accounts, limits, stored files, the mail outbox) in db/*.tables.ts.
 */
export * from "#server/db/auth.tables";
export * from "#server/db/limits.tables";
export * from "#server/db/mail.tables";
export * from "#server/db/storage.tables";
export * from "#server/events/events.tables";
export * from "#server/modules/answers/answers.tables";
export * from "#server/modules/bookings/bookings.tables";
export * from "#server/modules/calendar/calendar.tables";
export * from "#server/modules/calls/calls.tables";
export * from "#server/modules/contact/contact.tables";
export * from "#server/modules/feedback/feedback.tables";
export * from "#server/modules/progress/progress.tables";
export * from "#server/modules/reminders/reminders.tables";
export * from "#server/modules/review/review.tables";
export * from "#server/modules/settings/settings.tables";
export * from "#server/modules/speaking/speaking.tables";
export * from "#server/modules/studio/studio.tables";
export * from "#server/modules/voices/voices.tables";
