import { eq, inArray, sql } from "drizzle-orm";
import nodemailer from "nodemailer";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { connectDatabase } from "#server/db/client";
import { mailOutbox } from "#server/db/schema";
import { createMailer, LINK_REMOVED, MAX_ATTEMPTS, singleLine } from "./mailer";

const silent = pino({ level: "silent" });
const database = connectDatabase(process.env.TEST_DATABASE_URL!, silent, { max: 6 });
const { db } = database;
afterAll(() => database.close());

interface Delivered {
  from: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * A stand-in for the SMTP server (a third party): a real nodemailer transport whose `send` records
 * the message, or fails while `failing` is set; `held` keeps every message waiting until `release()`.
 */
function fakeSmtp(options: { failing?: boolean; delayMs?: number; held?: boolean } = {}) {
  const delivered: Delivered[] = [];
  const state = { failing: options.failing ?? false };
  let release = () => {};
  const gate = options.held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const transport = nodemailer.createTransport({
    name: "fake-smtp",
    version: "1",
    send(mail, callback) {
      void gate.then(() =>
        setTimeout(() => {
          if (state.failing) return callback(new Error("421 try again later"), undefined as never);
          const data = mail.data as { from: string; to: string; subject: string; text: string };
          delivered.push({ from: data.from, to: data.to, subject: data.subject, text: data.text });
          callback(null, { envelope: mail.message.getEnvelope(), messageId: "x" } as never);
        }, options.delayMs ?? 0),
      );
    },
  });
  return { transport, delivered, state, release: () => release() };
}

const to = (label: string) => `${label}-${Math.random().toString(36).slice(2, 8)}@example.com`;

async function rowsFor(recipients: string[]) {
  return db.select().from(mailOutbox).where(inArray(mailOutbox.recipient, recipients));
}

async function until(check: () => Promise<boolean>, what: string) {
  for (let waited = 0; waited < 10_000; waited += 25) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describe("singleLine", () => {
  it("removes CR and LF so a value cannot start a new mail header", () => {
    expect(singleLine("Hi\r\nBcc: victim@example.com")).toBe("Hi Bcc: victim@example.com");
  });
});

describe("without SMTP", () => {
  it("writes each message to the outbox table before send resolves, headers on one line", async () => {
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent });
    const recipient = to("outbox");
    await mailer.send({ to: `${recipient}\n`, subject: "Hello\r\nBcc: x@y.z", text: "Body", link: "http://l/ink" });
    const [row] = await rowsFor([recipient]);
    expect(row).toMatchObject({ subject: "Hello Bcc: x@y.z", body: "Body", link: "http://l/ink", sentAt: null });
    await mailer.close();
  });

  it("stores a message's header fields with it, each value on one line, and refuses a name that is not one", async () => {
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent });
    const recipient = to("headers");
    await mailer.send({
      to: recipient,
      subject: "Reminder",
      text: "Body",
      headers: {
        "List-Unsubscribe": "<https://l/one-click?token=t>\r\nBcc: x@y.z",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      },
    });
    expect((await rowsFor([recipient]))[0]?.headers).toEqual({
      "List-Unsubscribe": "<https://l/one-click?token=t> Bcc: x@y.z",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    const refused = to("bad-header");
    for (const name of ["Bcc: x@y.z\r\nX", "X Y", ""]) {
      await expect(mailer.send({ to: refused, subject: "s", text: "t", headers: { [name]: "v" } })).rejects.toThrow(
        "is not a mail header name",
      );
    }
    expect(await rowsFor([refused])).toEqual([]);
    await mailer.close();
  });

  it("deletes mail written longer ago than the retention period when pruned, keeping newer mail", async () => {
    const [old, oldSent, recent] = [to("old"), to("old-sent"), to("recent")];
    await db.insert(mailOutbox).values([
      { recipient: old, subject: "Old", body: "b", createdAt: sql`now() - interval '31 days'` },
      {
        recipient: oldSent,
        subject: "Old and sent",
        body: "b",
        createdAt: sql`now() - interval '32 days'`,
        sentAt: sql`now() - interval '31 days'`,
      },
      { recipient: recent, subject: "Recent", body: "b", createdAt: sql`now() - interval '29 days'` },
    ]);
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent, retentionDays: 30 });
    expect(await mailer.prune()).toBeGreaterThanOrEqual(2);
    expect((await rowsFor([old, oldSent, recent])).map((row) => row.subject)).toEqual(["Recent"]);
    await mailer.close();
  });

  it("has only the outbox's pruning to run on the queue: nothing is delivered", () => {
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent });
    expect(mailer.jobs.map((job) => job.name)).toEqual(["outbox pruned"]);
  });

  it("logs the link only when links may be logged", async () => {
    for (const logLinks of [true, false]) {
      const lines: string[] = [];
      const logger = pino({ level: "info" }, { write: (line: string) => lines.push(line) });
      const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger, logLinks });
      await mailer.send({ to: to("log"), subject: "Reset", text: "t", link: "http://l/reset?token=secret-token" });
      expect(lines.join("").includes("secret-token")).toBe(logLinks);
      await mailer.close();
    }
  });
});

describe("with SMTP", () => {
  it("delivers a message in the background and marks it sent", async () => {
    const smtp = fakeSmtp({ held: true });
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent, transport: smtp.transport });
    const recipient = to("smtp");
    // send() returns once the outbox row is stored, while the SMTP server still holds the message.
    await mailer.send({ to: recipient, subject: "Confirm", text: "Open the link" });
    expect(smtp.delivered).toEqual([]);
    expect((await rowsFor([recipient]))[0]?.sentAt).toBeNull();
    smtp.release();
    await until(async () => (await rowsFor([recipient]))[0]?.sentAt != null, "the message is marked sent");
    expect(smtp.delivered.filter((mail) => mail.to === recipient)).toEqual([
      { from: "Jalan <a@b.c>", to: recipient, subject: "Confirm", text: "Open the link" },
    ]);
    await mailer.close();
  });

  it("sends a message's header fields with it", async () => {
    // A transport that builds each message as nodemailer would put it on the wire.
    const raw = new Map<string, string>();
    const transport = nodemailer.createTransport({
      name: "raw-smtp",
      version: "1",
      send(mail, callback) {
        mail.message.build((error, message) => {
          if (error) return callback(error, undefined as never);
          raw.set(String((mail.data as { to: string }).to), message.toString());
          callback(null, { envelope: mail.message.getEnvelope(), messageId: "x" } as never);
        });
      },
    });
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent, transport });
    const recipient = to("with-headers");
    const oneClick = "https://jalan.example/api/reminders/one-click?token=abc.123.def";
    await mailer.send({
      to: recipient,
      subject: "Reminder",
      text: "Body",
      headers: { "List-Unsubscribe": `<${oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    });
    await until(async () => (await rowsFor([recipient]))[0]?.sentAt != null, "the message is marked sent");
    // Unfolded, as a mail client reads the header section.
    const headerSection = raw
      .get(recipient)!
      .split(/\r?\n\r?\n/)[0]!
      .replace(/\r?\n[ \t]+/g, " ");
    expect(headerSection.split(/\r?\n/)).toEqual(
      expect.arrayContaining([`List-Unsubscribe: <${oneClick}>`, "List-Unsubscribe-Post: List-Unsubscribe=One-Click"]),
    );
    await mailer.close();
  });

  it("keeps no link once a message is sent: the text holds a marker where it was", async () => {
    const smtp = fakeSmtp();
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent, transport: smtp.transport });
    const recipient = to("link");
    const link = "http://localhost:3000/api/auth/reset-password/one-time-token?callbackURL=%2Freset";
    await mailer.send({ to: recipient, subject: "Reset", text: `Open this link:\n\n${link}\n\nBye.`, link });
    await until(async () => (await rowsFor([recipient]))[0]?.sentAt != null, "the message is marked sent");
    // The recipient got the link; the table kept none of it.
    expect(smtp.delivered.find((mail) => mail.to === recipient)?.text).toContain(link);
    const [row] = await rowsFor([recipient]);
    expect(row).toMatchObject({ link: null, body: `Open this link:\n\n${LINK_REMOVED}\n\nBye.` });
    await mailer.close();
  });

  it("deletes sent mail older than the retention period, keeping newer sent mail and mail still waiting", async () => {
    const [old, recent, waiting] = [to("old"), to("recent"), to("waiting")];
    await db.insert(mailOutbox).values([
      { recipient: old, subject: "Old", body: "b", sentAt: sql`now() - interval '31 days'` },
      { recipient: recent, subject: "Recent", body: "b", sentAt: sql`now() - interval '29 days'` },
      // Waiting for a person after MAX_ATTEMPTS: never sent, so never pruned.
      {
        recipient: waiting,
        subject: "Waiting",
        body: "b",
        attempts: MAX_ATTEMPTS,
        createdAt: sql`now() - interval '60 days'`,
      },
    ]);
    const smtp = fakeSmtp();
    const mailer = createMailer({
      db,
      from: "Jalan <a@b.c>",
      logger: silent,
      transport: smtp.transport,
      retentionDays: 30,
    });
    const trigger = to("trigger");
    await mailer.send({ to: trigger, subject: "Now", text: "t" });
    await until(async () => (await rowsFor([trigger]))[0]?.sentAt != null, "a delivery pass has run");
    expect((await rowsFor([old, recent, waiting])).map((row) => row.subject).sort()).toEqual(["Recent", "Waiting"]);
    await mailer.close();
  });

  it("delivers at start what a process that died left claimed and unsent", async () => {
    const recipient = to("orphan");
    // Claimed by an instance that was killed mid-send: its claim has run out.
    await db.insert(mailOutbox).values({
      recipient,
      subject: "Left behind",
      body: "b",
      attempts: 1,
      claimedUntil: sql`now() - interval '1 second'`,
    });
    const smtp = fakeSmtp();
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent, transport: smtp.transport });
    await until(async () => (await rowsFor([recipient]))[0]?.sentAt != null, "the orphan is sent");
    expect(smtp.delivered.filter((mail) => mail.to === recipient)).toHaveLength(1);
    await mailer.close();
  });

  it("leaves a message written in a transaction to its sweep job, which the queue runs", async () => {
    const smtp = fakeSmtp();
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent, transport: smtp.transport });
    expect(mailer.jobs.map((job) => [job.name, job.everyMs])).toEqual([
      ["outbox pruned", 60 * 60_000],
      ["mail swept", 30_000],
    ]);
    const sweep = mailer.jobs.find((job) => job.name === "mail swept")!;
    // The pass the mailer starts with is over once a sweep ends.
    await sweep.run();
    const recipient = to("within");
    await db.transaction((tx) => mailer.send({ to: recipient, subject: "Booked", text: "b" }, tx));
    expect((await rowsFor([recipient]))[0]?.sentAt).toBeNull();

    await sweep.run();
    expect((await rowsFor([recipient]))[0]?.sentAt).not.toBeNull();
    expect(smtp.delivered.filter((mail) => mail.to === recipient)).toHaveLength(1);
    await mailer.close();
  });

  it("sends each message once when two instances deliver at the same time", async () => {
    const recipients = Array.from({ length: 30 }, (_, index) => to(`pair${index}`));
    await db.insert(mailOutbox).values(recipients.map((recipient) => ({ recipient, subject: "Pair", body: "b" })));
    const [a, b] = [fakeSmtp({ delayMs: 5 }), fakeSmtp({ delayMs: 5 })];
    const mailers = [a, b].map((smtp) =>
      createMailer({ db, from: "Jalan <a@b.c>", logger: silent, transport: smtp.transport }),
    );
    await until(
      async () => (await rowsFor(recipients)).every((row) => row.sentAt !== null),
      "every message is marked sent",
    );
    const sent = [...a.delivered, ...b.delivered].filter((mail) => recipients.includes(mail.to)).map((mail) => mail.to);
    expect(sent.sort()).toEqual([...recipients].sort());
    await Promise.all(mailers.map((mailer) => mailer.close()));
  });

  it("keeps a message the server refused, with the error, and tries it again later", async () => {
    const smtp = fakeSmtp({ failing: true });
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent, transport: smtp.transport });
    const recipient = to("refused");
    await mailer.send({ to: recipient, subject: "Try", text: "b" });
    await until(async () => (await rowsFor([recipient]))[0]?.lastError != null, "the failure is recorded");
    await mailer.close();
    const [row] = await rowsFor([recipient]);
    expect(row).toMatchObject({ sentAt: null, attempts: 1, lastError: "421 try again later" });
    expect(row!.claimedUntil!.getTime()).toBeGreaterThan(Date.now());

    // The pause is over: the next instance to look delivers it.
    await db.update(mailOutbox).set({ claimedUntil: null }).where(eq(mailOutbox.recipient, recipient));
    smtp.state.failing = false;
    const next = createMailer({ db, from: "Jalan <a@b.c>", logger: silent, transport: smtp.transport });
    await until(async () => (await rowsFor([recipient]))[0]?.sentAt != null, "the retry is sent");
    expect((await rowsFor([recipient]))[0]).toMatchObject({ attempts: 2, lastError: null });
    await next.close();
  });

  it("stops trying after MAX_ATTEMPTS, leaving the message for a person to read", async () => {
    const recipient = to("given-up");
    await db.insert(mailOutbox).values({ recipient, subject: "Gone", body: "b", attempts: MAX_ATTEMPTS });
    const smtp = fakeSmtp();
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent, transport: smtp.transport });
    await mailer.send({ to: to("after"), subject: "After", text: "b" });
    await until(async () => smtp.delivered.some((mail) => mail.subject === "After"), "a later message is sent");
    await mailer.close();
    expect(smtp.delivered.some((mail) => mail.to === recipient)).toBe(false);
  });
});

describe("forget", () => {
  it("deletes every message to an address, sent or waiting and in any case, only if the caller's transaction commits", async () => {
    const mailer = createMailer({ db, from: "Jalan <a@b.c>", logger: silent });
    const [mine, other] = [to("mine"), to("other")];
    await mailer.send({ to: mine, subject: "Verify", text: "v" });
    await db.insert(mailOutbox).values([
      { recipient: mine.toUpperCase(), subject: "Sent", body: "s", sentAt: sql`now()` },
      { recipient: other, subject: "Other", body: "o" },
    ]);
    await expect(
      db.transaction(async (tx) => {
        expect(await mailer.forget(mine, tx)).toBe(2);
        throw new Error("the deletion failed after this");
      }),
    ).rejects.toThrow("the deletion failed after this");
    expect(await rowsFor([mine, mine.toUpperCase()])).toHaveLength(2);

    expect(await db.transaction((tx) => mailer.forget(mine, tx))).toBe(2);
    expect(await rowsFor([mine, mine.toUpperCase()])).toEqual([]);
    expect(await rowsFor([other])).toHaveLength(1);
    await mailer.close();
  });
});
