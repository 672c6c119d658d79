import { z } from "zod";
import { multiLineText, singleLineText } from "#course/text-fields";

/**
 * The contact form's contract: POST /api/contact, open to visitors, contactMessageSchema →
 * ContactSentResponse (201), or 429 with a retry-after for a client past the limit. Admins read
 * the messages through the admin module (admin.contract.ts).
 */

const textField = (label: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`) })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

export const contactMessageSchema = z
  .object({
    fullName: singleLineText(textField("Full name", 100), "Your full name"),
    email: textField("Email address", 254).pipe(z.email("Email address must be a valid email address.")),
    message: multiLineText(textField("Message", 5000), "Your message"),
  })
  .strict();

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;

export interface ContactSentResponse {
  ok: true;
}

/** A message sent through the contact form, as the admins' inbox lists it (admin.contract.ts). */
export interface ContactMessage {
  id: string;
  fullName: string;
  email: string;
  message: string;
  createdAt: Date;
  /** The account that sent it, when the sender was signed in. */
  userId: string | null;
}

export interface ContactMessagePage {
  messages: ContactMessage[];
  page: number;
  perPage: number;
  total: number;
}

/**
 * What the contact module records as it happens (src/server/events; docs/decisions/075-events.md).
 * `contact.message-received`: a message was stored; the contact module's own handler emails every
 * Admin. The payload names the message only: the handler reads it, and finds none once its sender's
 * account was deleted with it.
 */
export const contactEvents = {
  messageReceived: { name: "contact.message-received", payload: z.object({ messageId: z.uuid() }).strict() },
};

/** A message the account sent, in its Export My Data (account.contract.ts). */
export interface ExportedContactMessage {
  fullName: string;
  email: string;
  message: string;
  createdAt: Date;
}
