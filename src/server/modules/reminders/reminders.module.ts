import type { Logger } from "pino";
import type { Database } from "#server/db/client";
import type { Mailer } from "#server/mail/mailer";
import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import type { ReviewModule } from "#server/modules/review/review.module";
import { createReminders } from "#server/modules/review/review.service";
import { reminderRoutes } from "./reminders.routes";

/** How often each instance looks for learners due a review reminder. */
export const REMINDER_SCAN_MS = 5 * 60_000;

/** The daily review reminder (a job on every instance) and its unsubscribe link: /api/reminders. */
export function remindersModule(deps: {
  db: Database;
  review: ReviewModule["service"];
  mailer: Mailer;
  publicUrl: string;
  secret: string;
  logger: Logger;
}) {
  const reminders = createReminders(deps);
  return {
    service: reminders,
    ...defineModule({
      name: "reminders",
      path: "/reminders",
      bodyLimit: JSON_BODY_LIMIT,
      routes: reminderRoutes(deps.review, deps.secret),
      jobs: [{ name: "review reminders", everyMs: REMINDER_SCAN_MS, run: reminders.sendDue }],
    }),
  };
}

export type RemindersModule = ReturnType<typeof remindersModule>;
