import { createHmac, timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import { localDate } from "#course/review-schedule";
import type { Database } from "#server/db/client";
import { badRequest } from "#server/http/errors";
import type { Mailer } from "#server/mail/mailer";
import type { ReviewModule } from "#server/modules/review/review.module";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import { createRemindersRepository } from "./reminders.repository";

/** The hour (0-23) it is at `at` in a time zone. */
export function localHour(at: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat("en-GB", { timeZone, hour: "2-digit", hourCycle: "h23" }).format(at));
}

/** The token of a learner's unsubscribe link: their id and an HMAC of it under AUTH_SECRET. */
export function unsubscribeToken(secret: string, userId: string): string {
  const mac = createHmac("sha256", secret).update(`unsubscribe:${userId}`).digest("base64url");
  return `${Buffer.from(userId).toString("base64url")}.${mac}`;
}

/** The learner an unsubscribe token names, or null when it was not made with this secret. */
export function userOfUnsubscribeToken(secret: string, token: string): string | null {
  const [encodedId, mac] = token.split(".");
  if (!encodedId || !mac) return null;
  const userId = Buffer.from(encodedId, "base64url").toString("utf8");
  const expected = Buffer.from(unsubscribeToken(secret, userId).split(".")[1]!);
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given) ? userId : null;
}

export interface RemindersDeps {
  db: Database;
  /** Who wants reminders, and turning them off. */
  settings: Pick<SettingsModule["service"], "reminderCandidates" | "turnOffEmails">;
  review: Pick<ReviewModule["service"], "reviewedOn" | "dueCount">;
  mailer: Mailer;
  publicUrl: string;
  /** AUTH_SECRET: signs the unsubscribe tokens. */
  secret: string;
  logger: Logger;
  /** The clock: tests move it. */
  now?: () => Date;
}

/**
 * The daily review reminder (docs/decisions/039-review-deck.md): for every learner with email
 * notifications on, at their chosen hour where they are, when cards are due and they have not
 * reviewed that day. A (learner, date) row is written first and only its writer sends, so however
 * many instances run this at once, one email goes out per learner and day.
 */
export function createReminders(deps: RemindersDeps) {
  const { db, settings, review, mailer, publicUrl, secret, logger, now = () => new Date() } = deps;
  const reminders = createRemindersRepository();

  async function sendDue(): Promise<number> {
    const at = now();
    const candidates = await settings.reminderCandidates();
    let sent = 0;
    for (const learner of candidates) {
      if (localHour(at, learner.timeZone) !== learner.reminderHour) continue;
      const today = localDate(at, learner.timeZone);
      if (await review.reviewedOn(learner.id, today)) continue;
      const due = await review.dueCount(learner.id, at);
      if (due === 0) continue;
      const reviewUrl = new URL("/review", publicUrl).toString();
      const unsubscribeUrl = new URL(
        `/unsubscribe?token=${unsubscribeToken(secret, learner.id)}`,
        publicUrl,
      ).toString();
      const greeting = learner.firstName ? `Hi ${learner.firstName},` : "Hi,";
      // The day's claim and the email commit together: a process that dies between them leaves
      // neither, and the next run (on any instance) sends the reminder.
      const claimed = await db.transaction(async (tx) => {
        if (!(await reminders.claim(tx, learner.id, today))) return false;
        await mailer.send(
          {
            to: learner.email,
            // Cards, as the body says: three skills of two phrases are six cards, not six phrases.
            subject: `${due} ${due === 1 ? "card is" : "cards are"} ready to review`,
            text: [
              greeting,
              "",
              `${due} review ${due === 1 ? "card is" : "cards are"} due today. A few minutes now keeps Alex's Malay, and yours, fresh.`,
              "",
              `Review now: ${reviewUrl}`,
              "",
              `You get this email once a day when reviews are waiting. Stop these reminders: ${unsubscribeUrl}`,
            ].join("\n"),
            link: reviewUrl,
          },
          tx,
        );
        return true;
      });
      if (!claimed) continue;
      sent += 1;
    }
    if (sent > 0) logger.info({ sent }, "review reminders written to the outbox");
    return sent;
  }

  return {
    sendDue,

    /** The unsubscribe link of a reminder: turns the learner's email notifications off. */
    async unsubscribe(token: string): Promise<void> {
      const userId = userOfUnsubscribeToken(secret, token);
      if (!userId) throw badRequest("This unsubscribe link is not valid.");
      if (!(await settings.turnOffEmails(userId))) throw badRequest("This unsubscribe link is not valid.");
    },
  };
}

export type RemindersService = ReturnType<typeof createReminders>;
