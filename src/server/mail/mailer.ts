import { and, asc, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Database } from "#server/db/client";
import { mailOutbox } from "#server/db/schema";
import type { Job } from "#server/modules/module";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The link the message is about (verification, reset), logged for local development. */
  link?: string;
  /**
   * Header fields beyond From, To and Subject, such as a reminder's List-Unsubscribe. Stored with
   * the message and sent with it; each value is kept to one line.
   */
  headers?: Record<string, string>;
  /**
   * A calendar invite (an iCalendar object, RFC 5545) sent with the message as its text/calendar
   * part with RFC 5546's method: REQUEST adds or updates the event in the reader's calendar, CANCEL
   * removes it.
   */
  calendar?: { method: "REQUEST" | "CANCEL"; content: string };
}

/** A transaction of the app's database, in which a message can be written with other rows. */
export type MailTransaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export interface Mailer {
  /**
   * Writes the message to the outbox table. Once this resolves the message is in PostgreSQL, so no
   * process that dies afterwards loses it; with SMTP it is delivered in the background. Written
   * `within` a transaction, it is kept only if that commits, and delivered by the next sweep (it
   * cannot be seen before the commit). Several messages (a booking's mail to both its sides) are
   * written in one statement.
   */
  send(message: MailMessage | readonly MailMessage[], within?: MailTransaction): Promise<void>;
  /**
   * Deletes every message to this address, sent or waiting, in the caller's transaction (an
   * account's deletion): nothing of it stays, and a message not yet sent never goes out. Answers how
   * many there were.
   */
  forget(address: string, within: MailTransaction): Promise<number>;
  /**
   * Deletes the messages older than the retention period: sent ones by when they were sent and,
   * without SMTP, where nothing is ever sent, every one by when it was written. Answers how many.
   * A job runs it (MAIL_PRUNE_EVERY_MS, `jobs`); with SMTP each delivery pass runs it too.
   */
  prune(): Promise<number>;
  /** Stops delivering (at shutdown); waiting messages stay in the outbox for another instance. */
  close(): Promise<void>;
}

/** The app's mailer, as the server starts it: a Mailer with the background work the queue runs for it. */
export interface OutboxMailer extends Mailer {
  /**
   * Run on the queue once across all instances: the outbox's pruning (without SMTP too: nothing
   * else deletes its mail then) and, with SMTP, the delivery sweep of the messages left waiting
   * (written in a transaction, refused for now, or left by a process that died).
   */
  jobs: readonly Job[];
}

/** Header values must be one line: a CR or LF could otherwise start a new header. */
export function singleLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}

/** A header field's name (RFC 5322: printable ASCII but the colon). */
const HEADER_NAME = /^[!-9;-~]+$/;

/** The message's extra header fields, each value on one line; a name that is not one is refused. */
function headerFields(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!headers) return undefined;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      if (!HEADER_NAME.test(name)) throw new Error(`"${name}" is not a mail header name.`);
      return [name, singleLine(value)];
    }),
  );
}

/** How often the queue looks for messages left waiting (in a transaction, by a failure, or by a process that died). */
export const MAIL_SWEEP_EVERY_MS = 30_000;
/** How long an instance has a claimed message to itself before another may try it. */
const CLAIM_SECONDS = 120;
/** Messages taken in one delivery pass. */
const BATCH = 10;
/** After this many failed tries a message stays in the outbox, with its last error, for a person to read. */
export const MAX_ATTEMPTS = 8;
/** How often the mail kept past its retention period is deleted (Mailer.prune). */
export const MAIL_PRUNE_EVERY_MS = 60 * 60_000;
/**
 * How long a message is kept: a sent one from when it was sent (its recipient, subject and text, its
 * link already removed); without SMTP every one from when it was written.
 */
export const DEFAULT_MAIL_RETENTION_DAYS = 30;
/** What a sent message's text holds where its link was: links carry one-time tokens. */
export const LINK_REMOVED = "[link removed once sent]";

/** A row of the outbox, as a delivery pass claims it. */
type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * Every message is first a row of `mail_outbox` (docs/decisions/026-several-instances.md). With SMTP (the
 * `transport`), the instance that writes a row delivers it right away, and the queue's sweep (every
 * 30 s, on one instance) delivers the rows left behind. A row is claimed for a while with `for update skip locked`, so
 * two instances never send it at the same time, and it is marked sent once the SMTP server accepts
 * it; a failure is retried later, with a growing pause. Without SMTP the table is the outbox a
 * developer reads (`npm run outbox`), and the log line carries the link.
 */
export function createMailer(options: {
  db: Database;
  from: string;
  logger: Logger;
  /** Where messages are delivered; none keeps them in the outbox. */
  transport?: Transporter;
  /** Put the message's link in the log line (development); links carry one-time tokens. */
  logLinks?: boolean;
  /** Days a sent message is kept before it is deleted. */
  retentionDays?: number;
}): OutboxMailer {
  const { db, from, logger, transport, logLinks = true, retentionDays = DEFAULT_MAIL_RETENTION_DAYS } = options;
  const log = logger.child({ component: "mail" });
  const prune = () => pruneOutbox(db, retentionDays, transport !== undefined);
  const passes = transport
    ? deliveryPasses(() => deliverWaiting({ db, smtp: transport, from, log, prune }), log)
    : undefined;

  const send: Mailer["send"] = async (message, within) => {
    const messages: readonly MailMessage[] = "to" in message ? [message] : message;
    if (messages.length === 0) return;
    const rows = messages.map(outboxRow);
    await (within ?? db).insert(mailOutbox).values(rows);
    if (passes) {
      if (!within) passes.kick();
      return;
    }
    for (const [index, row] of rows.entries()) {
      const link = logLinks ? messages[index]!.link : undefined;
      log.info({ to: row.recipient, subject: row.subject, link }, "email written to the outbox");
    }
  };

  const jobs: Job[] = [{ name: "outbox pruned", everyMs: MAIL_PRUNE_EVERY_MS, run: prune }];
  if (passes) jobs.push({ name: "mail swept", everyMs: MAIL_SWEEP_EVERY_MS, run: passes.sweep });
  passes?.kick();

  return {
    send,
    async forget(address, within) {
      const removed = await within
        .delete(mailOutbox)
        .where(sql`lower(${mailOutbox.recipient}) = lower(${singleLine(address)})`)
        .returning({ id: mailOutbox.id });
      return removed.length;
    },
    prune,
    jobs,
    async close() {
      await passes?.stop();
      transport?.close();
    },
  };
}

/** A message as the outbox stores it: recipient and subject on one line, header fields checked. */
function outboxRow(message: MailMessage) {
  return {
    recipient: singleLine(message.to),
    subject: singleLine(message.subject),
    body: message.text,
    link: message.link,
    headers: headerFields(message.headers),
    calendar: message.calendar,
  };
}

/**
 * The delivery passes of one mailer: one runs at a time, and one asked for while another runs
 * starts when it ends. Once stopped, none starts.
 */
function deliveryPasses(pass: () => Promise<void>, log: Logger) {
  let delivering: Promise<void> | null = null;
  let again = false;
  let closed = false;

  /** Runs a delivery pass, or asks the running one to look again when it ends. */
  function kick() {
    if (closed) return;
    if (delivering) {
      again = true;
      return;
    }
    delivering = (async () => {
      do {
        again = false;
        await pass().catch((error: unknown) => log.warn({ err: error }, "mail delivery failed"));
      } while (again && !closed);
      delivering = null;
    })();
  }

  return {
    kick,
    /** A delivery pass, and the one it asked for, if it did, when it ends. */
    async sweep() {
      kick();
      await delivering;
    },
    /** No pass starts any more; resolves when the running one ends. */
    async stop() {
      closed = true;
      await delivering;
    },
  };
}

/** Claims up to BATCH waiting messages for this instance. */
function claim(db: Database) {
  const waiting = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        isNull(mailOutbox.sentAt),
        lt(mailOutbox.attempts, MAX_ATTEMPTS),
        or(isNull(mailOutbox.claimedUntil), lt(mailOutbox.claimedUntil, sql`now()`)),
      ),
    )
    .orderBy(asc(mailOutbox.createdAt))
    .limit(BATCH)
    .for("update", { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({
      claimedUntil: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
      attempts: sql`${mailOutbox.attempts} + 1`,
    })
    .where(inArray(mailOutbox.id, waiting))
    .returning();
}

/**
 * Deletes the messages sent longer ago than the retention period. With SMTP a message never sent
 * (refused MAX_ATTEMPTS times) stays for a person to read; without it nothing is ever sent, and
 * the outbox a developer reads keeps only the retention period's mail.
 */
async function pruneOutbox(db: Database, retentionDays: number, withSmtp: boolean): Promise<number> {
  const before = sql`now() - make_interval(days => ${retentionDays})`;
  const expired = withSmtp
    ? lt(mailOutbox.sentAt, before)
    : or(lt(mailOutbox.sentAt, before), and(isNull(mailOutbox.sentAt), lt(mailOutbox.createdAt, before)));
  const removed = await db.delete(mailOutbox).where(expired).returning({ id: mailOutbox.id });
  return removed.length;
}

/** What a delivery pass works with. */
interface Delivery {
  db: Database;
  smtp: Transporter;
  from: string;
  log: Logger;
  prune: () => Promise<number>;
}

/** A delivery pass: prunes the outbox, then delivers the waiting messages, a batch at a time. */
async function deliverWaiting(delivery: Delivery) {
  await delivery.prune();
  for (;;) {
    const rows = await claim(delivery.db);
    for (const row of rows) await deliver(delivery, row);
    if (rows.length < BATCH) return;
  }
}

/** Sends one claimed message: marked sent without its link once accepted, else kept to be tried again later. */
async function deliver({ db, smtp, from, log }: Delivery, row: OutboxRow) {
  try {
    await smtp.sendMail({
      from,
      to: row.recipient,
      subject: row.subject,
      text: row.body,
      headers: row.headers ?? undefined,
      icalEvent: row.calendar
        ? { method: row.calendar.method, content: row.calendar.content, filename: "invite.ics" }
        : undefined,
    });
    // Sent: the link's one-time token has no reason to stay in the table.
    await db
      .update(mailOutbox)
      .set({
        sentAt: sql`now()`,
        claimedUntil: null,
        lastError: null,
        body: sql`case when ${mailOutbox.link} is null or ${mailOutbox.link} = '' then ${mailOutbox.body}
          else replace(${mailOutbox.body}, ${mailOutbox.link}, ${LINK_REMOVED}) end`,
        link: null,
      })
      .where(eq(mailOutbox.id, row.id));
    log.info({ to: row.recipient, subject: row.subject }, "email sent");
  } catch (error) {
    // Tried again after 1, 4, 9… minutes; the claim keeps other instances off it until then.
    const message = error instanceof Error ? error.message : String(error);
    await db
      .update(mailOutbox)
      .set({ lastError: message, claimedUntil: sql`now() + make_interval(mins => ${row.attempts ** 2})` })
      .where(eq(mailOutbox.id, row.id));
    log.warn({ to: row.recipient, subject: row.subject, attempts: row.attempts, err: message }, "email not sent");
  }
}

/** The SMTP transport for SMTP_URL, with short timeouts: a dead server must not hold a delivery pass for long. */
export function smtpTransport(smtpUrl: string): Transporter {
  const url = new URL(smtpUrl);
  for (const [name, ms] of [
    ["connectionTimeout", "10000"],
    ["greetingTimeout", "10000"],
    ["socketTimeout", "20000"],
  ] as const) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, ms);
  }
  return nodemailer.createTransport(url.toString());
}

/** The app's mailer as the environment configures it; links are logged outside production only. */
export function createMailerFromEnv(
  env: { SMTP_URL?: string; MAIL_FROM: string; NODE_ENV: string; MAIL_RETENTION_DAYS: number },
  db: Database,
  logger: Logger,
): OutboxMailer {
  return createMailer({
    db,
    from: env.MAIL_FROM,
    logger,
    transport: env.SMTP_URL ? smtpTransport(env.SMTP_URL) : undefined,
    logLinks: env.NODE_ENV !== "production",
    retentionDays: env.MAIL_RETENTION_DAYS,
  });
}
