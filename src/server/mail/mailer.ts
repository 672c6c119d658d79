import { appendFile, mkdir } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Logger } from "pino";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The link the message is about (verification, reset), logged for local development. */
  link?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Header values must be one line: a CR or LF could otherwise start a new header. */
export function singleLine(value: string): string {
  return value.replace(/[\r\n]+/g, " ").trim();
}

/**
 * SMTP when SMTP_URL is set. Otherwise messages land in DATA_DIR/outbox/messages.jsonl (one JSON
 * object per line) and the log carries the link, so a developer can follow it without a mail server.
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  logger: Logger;
  /** Put the message's link in the log line (development); links carry one-time tokens. */
  logLinks?: boolean;
}): Mailer {
  const { smtpUrl, from, dataDir, logger, logLinks = true } = options;
  if (smtpUrl) {
    // Short timeouts: a request that sends mail (the contact form) must not hang on a dead server.
    const url = new URL(smtpUrl);
    for (const [name, ms] of [
      ["connectionTimeout", "10000"],
      ["greetingTimeout", "10000"],
      ["socketTimeout", "20000"],
    ] as const) {
      if (!url.searchParams.has(name)) url.searchParams.set(name, ms);
    }
    const transport = nodemailer.createTransport(url.toString());
    return {
      async send(message) {
        await transport.sendMail({
          from,
          to: singleLine(message.to),
          subject: singleLine(message.subject),
          text: message.text,
        });
        logger.info({ to: message.to, subject: message.subject }, "email sent");
      },
    };
  }
  const outboxDir = path.join(dataDir, "outbox");
  const outboxFile = path.join(outboxDir, "messages.jsonl");
  return {
    async send(message) {
      await mkdir(outboxDir, { recursive: true });
      const entry = {
        ...message,
        from,
        to: singleLine(message.to),
        subject: singleLine(message.subject),
        sentAt: new Date().toISOString(),
      };
      await appendFile(outboxFile, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      logger.info(
        { to: entry.to, subject: entry.subject, link: logLinks ? message.link : undefined, outbox: outboxFile },
        "email written to the local outbox",
      );
    },
  };
}

export function outboxFile(dataDir: string): string {
  return path.join(dataDir, "outbox", "messages.jsonl");
}

/** The app's mailer as the environment configures it; links are logged outside production only. */
export function createMailerFromEnv(
  env: { SMTP_URL?: string; MAIL_FROM: string; DATA_DIR: string; NODE_ENV: string },
  logger: Logger,
): Mailer {
  return createMailer({
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM,
    dataDir: env.DATA_DIR,
    logger,
    logLinks: env.NODE_ENV !== "production",
  });
}
