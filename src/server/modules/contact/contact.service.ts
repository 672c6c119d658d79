import { and, count, desc, eq, gt, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { z } from "zod";
import type { Database } from "#server/db/client";
import { contactMessage, user } from "#server/db/schema";
import { type Mailer, singleLine } from "#server/mail/mailer";
import { contactClientKey } from "./client-key";

/** Messages one client may send in any hour (brief, change 6). */
export const CONTACT_MESSAGES_PER_HOUR = 5;

/**
 * The first half of the advisory lock the contact form takes per client; the second half is a hash
 * of the client key. Two-part keys never collide with the migration lock's single 64-bit key.
 */
const CONTACT_LOCK_CLASS = 740_214;

const textField = (label: string, max: number) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required.` : `${label} must be text.`) })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

export const contactMessageSchema = z
  .object({
    fullName: textField("Full name", 100),
    email: textField("Email address", 254).pipe(z.email("Email address must be a valid email address.")),
    message: textField("Message", 5000),
  })
  .strict();

export type ContactMessageInput = z.infer<typeof contactMessageSchema>;

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
}) {
  const { db, mailer, secret, publicUrl } = deps;
  const log = deps.logger.child({ module: "contact" });

  /**
   * One email per Admin account. A failure is logged, never thrown: the message is already stored
   * and Admins can read it in the inbox.
   */
  async function notifyStaff(messageId: string, input: ContactMessageInput, userId: string | null) {
    try {
      const admins = await db.select({ email: user.email }).from(user).where(eq(user.role, "Admin"));
      // singleLine: a CR or LF in the sender's name or address must never start a new mail header.
      const subject = `New contact message from ${singleLine(input.fullName)}`;
      const text = [
        `${singleLine(input.fullName)} <${singleLine(input.email)}> wrote through the contact form${userId ? " while signed in" : ""}:`,
        "",
        input.message,
        "",
        `All messages are in the Admin Dashboard: ${publicUrl}/admin`,
      ].join("\n");
      const results = await Promise.allSettled(admins.map((admin) => mailer.send({ to: admin.email, subject, text })));
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
     * Stores the message unless the client has sent CONTACT_MESSAGES_PER_HOUR in the last hour. The
     * count and the insert run under a per-client transaction lock, so concurrent requests (on any
     * instance) take turns and cannot both slip under the limit.
     */
    async submit(input: ContactMessageInput, from: { userId: string | null; address: string }): Promise<SubmitResult> {
      const clientKey = contactClientKey(secret, from.address);
      const result = await db.transaction(async (tx): Promise<SubmitResult> => {
        await tx.execute(sql`select pg_advisory_xact_lock(${CONTACT_LOCK_CLASS}::int, hashtext(${clientKey}))`);
        const [recent] = await tx
          .select({
            count: count(),
            // Seconds until the oldest message in the window is an hour old, freeing a place.
            retryAfterSeconds: sql<
              number | null
            >`ceil(extract(epoch from min(${contactMessage.createdAt}) + interval '1 hour' - now()))::int`,
          })
          .from(contactMessage)
          .where(
            and(eq(contactMessage.clientKey, clientKey), gt(contactMessage.createdAt, sql`now() - interval '1 hour'`)),
          );
        if (recent && recent.count >= CONTACT_MESSAGES_PER_HOUR) {
          return { sent: false, retryAfterSeconds: Math.max(1, recent.retryAfterSeconds ?? 3600) };
        }
        const [row] = await tx
          .insert(contactMessage)
          .values({ ...input, userId: from.userId, clientKey })
          .returning({ id: contactMessage.id });
        return { sent: true, id: row!.id };
      });
      if (result.sent) await notifyStaff(result.id, input, from.userId);
      return result;
    },

    /** The inbox: newest first. */
    async list({ page, perPage }: { page: number; perPage: number }): Promise<ContactMessagePage> {
      const [messages, [totals]] = await Promise.all([
        db
          .select({
            id: contactMessage.id,
            fullName: contactMessage.fullName,
            email: contactMessage.email,
            message: contactMessage.message,
            createdAt: contactMessage.createdAt,
            userId: contactMessage.userId,
          })
          .from(contactMessage)
          .orderBy(desc(contactMessage.createdAt), desc(contactMessage.id))
          .limit(perPage)
          .offset((page - 1) * perPage),
        db.select({ total: count() }).from(contactMessage),
      ]);
      return { messages, page, perPage, total: totals?.total ?? 0 };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
