import { createHmac, timingSafeEqual } from "node:crypto";
import type { Logger } from "pino";
import { oneLine } from "#course/user-text";
import type { Database } from "#server/db/client";
import { badRequest } from "#server/http/errors";
import type { Mailer } from "#server/mail/mailer";
import type { ReviewModule } from "#server/modules/review/review.module";
import type { SettingsModule } from "#server/modules/settings/settings.module";
import { UNSUBSCRIBE_LINK_NOT_VALID } from "./reminders.contract";
import { createRemindersRepository } from "./reminders.repository";

const DAY = 24 * 60 * 60_000;

/** How long an unsubscribe link works after its reminder is written (docs/decisions/043-unsubscribe-links.md). */
export const UNSUBSCRIBE_LINK_DAYS = 60;

/** Where a mail client sends the one-click unsubscribe of RFC 8058 (the List-Unsubscribe header). */
export const ONE_CLICK_PATH = "/api/reminders/one-click";

/** An unsubscribe token, exactly: the key (32 hex digits), when it expires (Unix seconds), its HMAC. */
const UNSUBSCRIBE_TOKEN = /^([0-9a-f]{32})\.([0-9]{10})\.([A-Za-z0-9_-]{43})$/;

const EXPIRED =
  "This unsubscribe link has expired. Turn reminder emails off in Settings, or use the link in a newer reminder.";
const NO_LONGER =
  "This unsubscribe link no longer works. Turn reminder emails off in Settings, or use the link in a newer reminder.";

function unsubscribeMac(secret: string, key: string, expires: string): string {
  return createHmac("sha256", secret).update(`unsubscribe-link:v1:${key}:${expires}`).digest("base64url");
}

/**
 * The token of an unsubscribe link: the learner's unsubscribe key (never their id or address), the
 * moment it expires, and an HMAC-SHA256 of both under AUTH_SECRET.
 */
export function unsubscribeToken(secret: string, unsubscribeKey: string, expiresAt: Date): string {
  const key = unsubscribeKey.replaceAll("-", "");
  const expires = String(Math.floor(expiresAt.getTime() / 1000));
  return `${key}.${expires}.${unsubscribeMac(secret, key, expires)}`;
}

/**
 * What an unsubscribe token allows at `at`: the unsubscribe key it names, or why it is refused. A
 * token is read only in its exact form, and only when this secret made it.
 */
export function readUnsubscribeToken(
  secret: string,
  token: string,
  at: Date,
): { unsubscribeKey: string } | { refused: "not valid" | "expired" } {
  const match = UNSUBSCRIBE_TOKEN.exec(token);
  if (!match) return { refused: "not valid" };
  const [, key, expires, mac] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(unsubscribeMac(secret, key, expires));
  if (!timingSafeEqual(expected, Buffer.from(mac))) return { refused: "not valid" };
  if (Number(expires) * 1000 <= at.getTime()) return { refused: "expired" };
  const uuid = `${key.slice(0, 8)}-${key.slice(8, 12)}-${key.slice(12, 16)}-${key.slice(16, 20)}-${key.slice(20)}`;
  return { unsubscribeKey: uuid };
}

export interface RemindersDeps {
  db: Database;
  /** Who wants reminders, and turning them off. */
  settings: Pick<SettingsModule["service"], "reminderCandidates" | "turnOffEmailsByKey">;
  review: Pick<ReviewModule["service"], "reviewedOn" | "dueCount">;
  mailer: Mailer;
  publicUrl: string;
  /** AUTH_SECRET: signs the unsubscribe tokens. */
  secret: string;
  logger: Logger;
  /** The clock the scan and the unsubscribe links' expiry go by: tests move it. */
  now?: () => Date;
}

/**
 * The daily review reminder (docs/decisions/039-review-deck.md): for every learner with email
 * notifications on, at their chosen hour where they are (PostgreSQL picks them), when cards are due
 * and they have not reviewed that day. A (learner, date) row is written first and only its writer
 * sends, so however many instances run this at once, one email goes out per learner and day. Each
 * email carries an unsubscribe link for people and RFC 8058's one-click headers for mail clients
 * (docs/decisions/043-unsubscribe-links.md).
 */
export function createReminders(deps: RemindersDeps) {
  const { db, settings, review, mailer, publicUrl, secret, logger, now = () => new Date() } = deps;
  const reminders = createRemindersRepository();

  async function sendDue(): Promise<number> {
    const at = now();
    const candidates = await settings.reminderCandidates(at);
    let sent = 0;
    let unknownZones = 0;
    for (const learner of candidates) {
      const today = learner.localDate;
      if (today === null) {
        unknownZones += 1;
        continue;
      }
      if (await review.reviewedOn(learner.id, today)) continue;
      const due = await review.dueCount(learner.id, at);
      if (due === 0) continue;
      const reviewUrl = new URL("/review", publicUrl).toString();
      const token = unsubscribeToken(
        secret,
        learner.unsubscribeKey,
        new Date(at.getTime() + UNSUBSCRIBE_LINK_DAYS * DAY),
      );
      const unsubscribeUrl = new URL(`/unsubscribe?token=${token}`, publicUrl).toString();
      const oneClickUrl = new URL(`${ONE_CLICK_PATH}?token=${token}`, publicUrl).toString();
      const firstName = oneLine(learner.firstName ?? "");
      const greeting = firstName ? `Hi ${firstName},` : "Hi,";
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
            headers: {
              "List-Unsubscribe": `<${oneClickUrl}>`,
              "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
          },
          tx,
        );
        return true;
      });
      if (!claimed) continue;
      sent += 1;
    }
    if (sent > 0) logger.info({ sent }, "review reminders written to the outbox");
    if (unknownZones > 0) {
      logger.warn(
        { learners: unknownZones },
        "no review reminder for learners whose time zone PostgreSQL does not know",
      );
    }
    return sent;
  }

  return {
    sendDue,

    /**
     * The unsubscribe link of a reminder, or its one-click POST: turns the learner's email
     * notifications off. A token that is not exactly one this app made, has expired, or names a key
     * the learner no longer has (they turned emails on again since) is refused and changes nothing.
     */
    async unsubscribe(token: string): Promise<void> {
      const read = readUnsubscribeToken(secret, token, now());
      if ("refused" in read) throw badRequest(read.refused === "expired" ? EXPIRED : UNSUBSCRIBE_LINK_NOT_VALID);
      if (!(await settings.turnOffEmailsByKey(read.unsubscribeKey))) throw badRequest(NO_LONGER);
    },
  };
}

export type RemindersService = ReturnType<typeof createReminders>;
