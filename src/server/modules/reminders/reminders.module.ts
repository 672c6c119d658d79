import { defineModule, JSON_BODY_LIMIT } from "#server/modules/module";
import { reminderRoutes } from "./reminders.routes";
import { createReminders, type RemindersDeps } from "./reminders.service";

/** How often the queue runs the look for learners due a review reminder (once across instances). */
export const REMINDER_SCAN_MS = 5 * 60_000;

/** The daily review reminder (a job on the queue) and its unsubscribe link: /api/reminders. */
export function remindersModule(deps: RemindersDeps) {
  const service = createReminders(deps);
  return {
    service,
    ...defineModule({
      name: "reminders",
      path: "/reminders",
      bodyLimit: JSON_BODY_LIMIT,
      routes: reminderRoutes(service),
      jobs: [{ name: "review reminders", everyMs: REMINDER_SCAN_MS, run: service.sendDue }],
    }),
  };
}

export type RemindersModule = ReturnType<typeof remindersModule>;
