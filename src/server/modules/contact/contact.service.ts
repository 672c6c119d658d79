import type { Logger } from "pino";
import type { Database } from "#server/db/client";
import { type Mailer, singleLine } from "#server/mail/mailer";
import type { ExportedContactMessage } from "#server/modules/account/account.contract";
import type { UsersModule } from "#server/modules/users/users.module";
import { contactClientKey } from "./client-key";
import type { ContactMessageInput, ContactMessagePage } from "./contact.contract";
import { createContactRepository } from "./contact.repository";

/** Messages one client may send in any hour (brief, change 6). */
export const CONTACT_MESSAGES_PER_HOUR = 5;

export type SubmitResult = { sent: true; id: string } | { sent: false; retryAfterSeconds: number };

/** What a client past the limit is told: when the oldest of its recent messages leaves the hour. */
export function tryAgainMessage(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return `You have sent several messages in a short time. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

export function createContactService(deps: {
  db: Database;
  mailer: Mailer;
  /** The key of the client-address HMAC (AUTH_SECRET), the same on every instance. */
  secret: string;
  publicUrl: string;
  logger: Logger;
  /** Who hears of a message: every Admin. */
  users: Pick<UsersModule["service"], "adminEmails">;
}) {
  const { mailer, secret, publicUrl, users } = deps;
  const messages = createContactRepository(deps.db);
  const log = deps.logger.child({ module: "contact" });

  /**
   * One email per Admin account. A failure is logged, never thrown: the message is already stored
   * and Admins can read it in the inbox.
   */
  async function notifyStaff(messageId: string, input: ContactMessageInput, userId: string | null) {
    try {
      const admins = await users.adminEmails();
      // singleLine: a CR or LF in the sender's name or address must never start a new mail header.
      const subject = `New contact message from ${singleLine(input.fullName)}`;
      const text = [
        `${singleLine(input.fullName)} <${singleLine(input.email)}> wrote through the contact form${userId ? " while signed in" : ""}:`,
        "",
        input.message,
        "",
        `All messages are in the Admin Dashboard: ${publicUrl}/admin`,
      ].join("\n");
      const results = await Promise.allSettled(admins.map((to) => mailer.send({ to, subject, text })));
      const failed = results.filter((result) => result.status === "rejected");
      if (failed.length > 0) {
        log.error(
          { messageId, failed: failed.length, err: failed[0]?.reason },
          "could not email staff a contact message",
        );
      }
    } catch (error) {
      log.error({ messageId, err: error }, "could not email staff a contact message");
    }
  }

  return {
    /**
     * Stores the message unless the client has sent CONTACT_MESSAGES_PER_HOUR in the last hour
     * (counted under a per-client lock, on every instance), then tells the Admins.
     */
    async submit(input: ContactMessageInput, from: { userId: string | null; address: string }): Promise<SubmitResult> {
      const clientKey = contactClientKey(secret, from.address);
      const result = await messages.insertWithinLimit(
        { ...input, userId: from.userId, clientKey },
        CONTACT_MESSAGES_PER_HOUR,
      );
      if (result.sent) await notifyStaff(result.id, input, from.userId);
      return result;
    },

    /** The inbox: newest first. */
    async list({ page, perPage }: { page: number; perPage: number }): Promise<ContactMessagePage> {
      const { messages: rows, total } = await messages.page({ page, perPage });
      return { messages: rows, page, perPage, total };
    },

    /** The messages the account sent, oldest first, for Export My Data. */
    async exportFor(userId: string): Promise<{ contactMessages: ExportedContactMessage[] }> {
      return { contactMessages: await messages.sentBy(userId) };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
