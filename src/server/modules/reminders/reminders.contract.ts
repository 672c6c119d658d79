import { z } from "zod";

/**
 * The reminders API's contract: POST /api/reminders/unsubscribe, the reminder email's link. No
 * session: the token is the proof.
 */

export const unsubscribeRequestSchema = z.strictObject({
  token: z
    .string({ error: "This unsubscribe link is not valid." })
    .min(1, "This unsubscribe link is not valid.")
    .max(300, "This unsubscribe link is not valid."),
});

export interface UnsubscribeResponse {
  emailNotifications: false;
}
