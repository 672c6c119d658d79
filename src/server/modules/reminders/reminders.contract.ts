import { z } from "zod";

/**
 * The reminders API's contract. No session on either route: the token is the proof.
 * - POST /api/reminders/unsubscribe: the unsubscribe page's button (the link in the email's text).
 * - POST /api/reminders/one-click?token=…: RFC 8058's one-click unsubscribe, the List-Unsubscribe
 *   header's address, which a mail client posts `List-Unsubscribe=One-Click` to as a form.
 */

/** The answer to any token that is not exactly one the app made. */
export const UNSUBSCRIBE_LINK_NOT_VALID = "This unsubscribe link is not valid.";

const token = z
  .string({ error: UNSUBSCRIBE_LINK_NOT_VALID })
  .min(1, UNSUBSCRIBE_LINK_NOT_VALID)
  .max(300, UNSUBSCRIBE_LINK_NOT_VALID);

export const unsubscribeRequestSchema = z.strictObject({ token });

export const oneClickQuerySchema = z.strictObject({ token });

/** The form a mail client posts; other fields, if any, are ignored. */
export const oneClickFormSchema = z.object({
  "List-Unsubscribe": z.literal("One-Click", {
    error: 'Send the form field "List-Unsubscribe=One-Click" (RFC 8058).',
  }),
});

export interface UnsubscribeResponse {
  emailNotifications: false;
}
