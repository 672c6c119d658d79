import type { Transaction } from "#server/db/client";
import { reviewReminder } from "./reminders.tables";

/** The reminders module's table: review_reminder, one row per learner and local date a reminder went out. */
export function createRemindersRepository() {
  return {
    /** Claims the learner's reminder for the day; false when another run claimed it first. */
    async claim(tx: Transaction, userId: string, localDate: string): Promise<boolean> {
      const [claim] = await tx
        .insert(reviewReminder)
        .values({ userId, localDate })
        .onConflictDoNothing()
        .returning({ userId: reviewReminder.userId });
      return claim !== undefined;
    },
  };
}
