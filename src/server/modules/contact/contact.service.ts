import type { Database, Transaction } from "#server/db/client";
import type { Emitter } from "#server/events/events";
import { type Mailer, singleLine } from "#server/mail/mailer";
import type { UsersModule } from "#server/modules/users/users.module";
import { contactClientKey } from "./client-key";
import {
  type ContactMessageInput,
  type ContactMessagePage,
  contactEvents,
  type ExportedContactMessage,
} from "./contact.contract";
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
  /** Who hears of a message: every Admin. */
  users: Pick<UsersModule["service"], "adminEmails">;
  /** Records that a message arrived, in the transaction that stores it. */
  events: Emitter;
}) {
  const { mailer, secret, publicUrl, users, events } = deps;
  const messages = createContactRepository(deps.db);

  return {
    /**
     * Stores the message unless the client has sent CONTACT_MESSAGES_PER_HOUR in the last hour
     * (counted under a per-client lock, on every instance), with the event that it arrived: the
     * Admins hear of it from that event's handler (tellStaff), once, whatever becomes of this request.
     */
    async submit(input: ContactMessageInput, from: { userId: string | null; address: string }): Promise<SubmitResult> {
      const clientKey = contactClientKey(secret, from.address);
      return messages.insertWithinLimit(
        { ...input, userId: from.userId, clientKey },
        CONTACT_MESSAGES_PER_HOUR,
        (tx, messageId) => events.emit(tx, contactEvents.messageReceived, { messageId }),
      );
    },

    /**
     * contact.message-received's handler: one email per Admin account, written in the handler's
     * transaction (so each goes once), or nothing when the message went with its sender's account.
     * A failure is tried again later (the event outbox); the message is already in the Admins' inbox.
     */
    async tellStaff({ messageId }: { messageId: string }, tx: Transaction): Promise<void> {
      const message = await messages.byId(messageId, tx);
      if (!message) return;
      // singleLine: a CR or LF in the sender's name or address must never start a new mail header.
      const subject = `New contact message from ${singleLine(message.fullName)}`;
      const text = [
        `${singleLine(message.fullName)} <${singleLine(message.email)}> wrote through the contact form${message.userId ? " while signed in" : ""}:`,
        "",
        message.message,
        "",
        `All messages are in the Admin Dashboard: ${publicUrl}/admin`,
      ].join("\n");
      for (const to of await users.adminEmails()) await mailer.send({ to, subject, text }, tx);
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
