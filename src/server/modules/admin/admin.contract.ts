import { pageQuerySchema } from "#course/page-query";

/**
 * The admin API's contract: what only Admins read.
 *
 * GET /api/admin/contact-messages  contactMessagesQuerySchema → ContactMessagePage (newest first)
 */

/** `?page=&perPage=`: page from 1, 20 messages a page unless asked, at most 100. */
export const contactMessagesQuerySchema = pageQuerySchema;

export type { ContactMessage, ContactMessagePage } from "#server/modules/contact/contact.contract";
