import { pageQuerySchema } from "#course/page-query";

/**
 * The admin API's contract: what only Admins read.
 *
 * GET /api/admin/contact-messages  contactMessagesQuerySchema → ContactMessagePage (newest first)
 */

/** `?page=&perPage=`: page from 1, 20 messages a page unless asked, at most 100. */
export const contactMessagesQuerySchema = pageQuerySchema;

/** A message sent through the contact form, as the inbox lists it. */
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
