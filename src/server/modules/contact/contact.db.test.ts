import { count, desc, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactMessage, eventDelivery, mailOutbox, user as userTable } from "#server/db/schema";
import { createEventOutbox } from "#server/events/outbox";
import { moduleFaces } from "#server/modules/registry";
import { createTestApp } from "#tests/test-app";
import { contactClientKey } from "./client-key";
import { CONTACT_MESSAGES_PER_HOUR } from "./contact.service";

const t = await createTestApp();

const good = {
  fullName: "Aisyah Rahman",
  email: "aisyah@example.com",
  message: "Do you have lessons for Sabah Malay?",
};

let addressCounter = 0;
/** A client address no other test uses, so each test starts with an empty rate-limit window. */
const newAddress = () => `198.51.100.${++addressCounter}`;

function send(body: unknown, options: { clientIp?: string; cookie?: string; headers?: Record<string, string> } = {}) {
  return t.request("/api/contact", { method: "POST", json: body, clientIp: newAddress(), ...options });
}

async function storedCount(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(contactMessage);
  return row!.n;
}

async function makeRole(email: string, role: "Admin" | "Tutor") {
  await t.db.update(userTable).set({ role }).where(eq(userTable.email, email));
}

describe("POST /api/contact", () => {
  it("stores a message from a visitor who is not signed in, trimmed, without their address", async () => {
    const clientIp = newAddress();
    const response = await send({ ...good, fullName: "  Aisyah Rahman ", email: " aisyah@example.com " }, { clientIp });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ ok: true });
    const [row] = await t.db
      .select()
      .from(contactMessage)
      .where(eq(contactMessage.clientKey, contactClientKey(t.env.AUTH_SECRET, clientIp)));
    expect(row).toMatchObject({ ...good, userId: null });
    expect(row!.clientKey).not.toContain(clientIp);
  });

  it("records who sent it when the sender is signed in", async () => {
    const { user, cookie } = await t.signedInUser();
    const clientIp = newAddress();
    expect((await send(good, { cookie, clientIp })).status).toBe(201);
    const [account] = await t.db.select().from(userTable).where(eq(userTable.email, user.email));
    const [row] = await t.db
      .select()
      .from(contactMessage)
      .where(eq(contactMessage.clientKey, contactClientKey(t.env.AUTH_SECRET, clientIp)));
    expect(row!.userId).toBe(account!.id);
  });

  it.each(["Tutor", "Admin"] as const)("takes a message from a signed-in %s too", async (role) => {
    const { user, cookie } = await t.signedInUser();
    await makeRole(user.email, role);
    expect((await send(good, { cookie })).status).toBe(201);
  });

  it.each([
    ["a missing name", { email: good.email, message: good.message }, "fullName", "Full name is required."],
    ["a blank message", { ...good, message: " \n\t " }, "message", "Message is required."],
    ["an empty email", { ...good, email: "" }, "email", "Email address is required."],
    ["an invalid email", { ...good, email: "aisyah@" }, "email", "Email address must be a valid email address."],
    ["an email with a header break", { ...good, email: "a@example.com\r\nBcc: x@evil.example" }, "email", undefined],
    ["a number for a name", { ...good, fullName: 42 }, "fullName", "Full name must be text."],
    ["null for a message", { ...good, message: null }, "message", "Message must be text."],
    ["a name over 100 characters", { ...good, fullName: "A".repeat(101) }, "fullName", undefined],
    ["an email over 254 characters", { ...good, email: `${"a".repeat(250)}@example.com` }, "email", undefined],
    ["a message over 5000 characters", { ...good, message: "kopi ".repeat(1001) }, "message", undefined],
    ["a field of its own", { ...good, userId: "someone-else" }, "", undefined],
    ["an array", [good], "", undefined],
  ])("refuses %s with a 400 naming the field and stores nothing", async (_label, body, field, message) => {
    const before = await storedCount();
    const response = await send(body);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("BAD_REQUEST");
    const issue = error.issues.find((candidate: { path: string }) => candidate.path === field);
    expect(issue).toBeDefined();
    if (message) expect(issue.message).toBe(message);
    expect(await storedCount()).toBe(before);
  });

  it("refuses malformed JSON and a body that is not JSON, storing nothing", async () => {
    const before = await storedCount();
    const malformed = await t.request("/api/contact", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"fullName": "A",',
      clientIp: newAddress(),
    });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.message).toBe("The request body is not valid JSON.");
    const form = await t.request("/api/contact", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "fullName=A&email=a%40example.com&message=hi",
      clientIp: newAddress(),
    });
    expect(form.status).toBe(400);
    expect(await storedCount()).toBe(before);
  });

  it("refuses a body over 64 KB with 413", async () => {
    const before = await storedCount();
    const response = await send({ ...good, message: "x".repeat(70_000) });
    expect(response.status).toBe(413);
    expect((await response.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await storedCount()).toBe(before);
  });

  it("refuses a request from another site", async () => {
    const response = await send(good, { headers: { origin: "https://evil.example" } });
    expect(response.status).toBe(403);
  });
});

describe("contact rate limit", () => {
  it("takes five messages an hour from one client, then answers 429 with Retry-After and stores nothing", async () => {
    const clientIp = newAddress();
    for (let i = 0; i < 5; i += 1) expect((await send(good, { clientIp })).status).toBe(201);
    const before = await storedCount();

    const refused = await send(good, { clientIp });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refused.json()).toEqual({
      error: {
        code: "TOO_MANY_REQUESTS",
        message: "You have sent several messages in a short time. Please try again in 60 minutes.",
      },
    });
    expect(await storedCount()).toBe(before);

    // A forged X-Forwarded-For is not the client's address: the limit still holds.
    const spoofed = await send(good, { clientIp, headers: { "x-forwarded-for": "192.0.2.99" } });
    expect(spoofed.status).toBe(429);
    // Signing in does not reset it either.
    const { cookie } = await t.signedInUser();
    expect((await send(good, { clientIp, cookie })).status).toBe(429);
    expect(await storedCount()).toBe(before);

    expect((await send(good, { clientIp: newAddress() })).status).toBe(201);
  });

  it("counts every address of one IPv6 /64 network as one client", async () => {
    for (let i = 1; i <= 5; i += 1) expect((await send(good, { clientIp: `2001:db8:77::${i}` })).status).toBe(201);
    expect((await send(good, { clientIp: "2001:db8:77:0:ffff::9" })).status).toBe(429);
    expect((await send(good, { clientIp: "2001:db8:78::1" })).status).toBe(201);
  });

  it("says when a place frees up: an hour after the oldest message of the window", async () => {
    const clientIp = newAddress();
    const clientKey = contactClientKey(t.env.AUTH_SECRET, clientIp);
    const at = (minutesAgo: number) => sql`now() - make_interval(mins => ${minutesAgo})`;
    for (const minutesAgo of [18, 10, 5, 2, 1]) {
      await t.db.insert(contactMessage).values({ ...good, clientKey, createdAt: at(minutesAgo) });
    }
    const refused = await send(good, { clientIp });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(41 * 60);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(42 * 60);
    expect((await refused.json()).error.message).toBe(
      "You have sent several messages in a short time. Please try again in 42 minutes.",
    );
  });

  it("forgets messages older than an hour", async () => {
    const clientIp = newAddress();
    const clientKey = contactClientKey(t.env.AUTH_SECRET, clientIp);
    for (let i = 0; i < 5; i += 1) {
      await t.db.insert(contactMessage).values({ ...good, clientKey, createdAt: sql`now() - interval '61 minutes'` });
    }
    expect((await send(good, { clientIp })).status).toBe(201);
  });

  it("lets exactly five of many concurrent requests from one client through", async () => {
    const clientIp = newAddress();
    const clientKey = contactClientKey(t.env.AUTH_SECRET, clientIp);
    const statuses = await Promise.all(Array.from({ length: 12 }, async () => (await send(good, { clientIp })).status));
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    const [stored] = await t.db
      .select({ n: count() })
      .from(contactMessage)
      .where(eq(contactMessage.clientKey, clientKey));
    expect(stored!.n).toBe(5);
  });
});

describe("staff email", () => {
  it("emails every Admin, one line per header; a name carrying CR/LF is refused before any email", async () => {
    const admins = [await t.signUp(), await t.signUp()];
    for (const admin of admins) await makeRole(admin.email, "Admin");
    const student = await t.signUp();
    const fromMallory = async () =>
      (await t.outbox()).filter((mail) => mail.subject.startsWith("New contact message from Mallory"));

    // A line break in a name could start a mail header (a Bcc): the form refuses it (decision 062).
    const refused = await send({ ...good, fullName: "Mallory\r\nBcc: x@evil.example", message: "Line one" });
    expect(refused.status).toBe(400);
    expect(await fromMallory()).toEqual([]);

    const name = "Mallory Bcc: x@evil.example";
    expect((await send({ ...good, fullName: name, message: "Line one\r\nLine two" })).status).toBe(201);
    await t.modules.events.deliverAll();

    const everyAdmin = await t.db.select({ email: userTable.email }).from(userTable).where(eq(userTable.role, "Admin"));
    const sent = await fromMallory();
    expect(sent.map((mail) => mail.to).sort()).toEqual(everyAdmin.map((admin) => admin.email).sort());
    expect(sent.map((mail) => mail.to)).toEqual(expect.arrayContaining(admins.map((admin) => admin.email)));
    expect(sent.map((mail) => mail.to)).not.toContain(student.email);
    for (const mail of sent) {
      expect(mail.subject).toBe("New contact message from Mallory Bcc: x@evil.example");
      expect(mail.subject).not.toMatch(/[\r\n]/);
      expect(mail.to).not.toMatch(/[\r\n]/);
      expect(mail.text).toContain("Mallory Bcc: x@evil.example <aisyah@example.com>");
      expect(mail.text).toContain("Line one\nLine two");
      expect(mail.text).toContain(`${t.env.PUBLIC_URL}/admin`);
    }
  });

  it("keeps the message and answers 201 when the email cannot be written, and emails the Admins once it can", async () => {
    const admin = await t.signUp();
    await makeRole(admin.email, "Admin");
    const toAdmin = async () => (await t.outbox()).filter((mail) => mail.to === admin.email);
    const already = (await toAdmin()).length;
    // The outbox refuses every email for a while (a full disk, a broken table): a real failure of the handler's transaction.
    await t.db.execute(sql`
      create function refuse_mail() returns trigger language plpgsql as $$
      begin raise exception 'the outbox could not be written'; end $$;
      create trigger refuse_mail before insert on mail_outbox for each row execute function refuse_mail()`);
    try {
      const before = await storedCount();
      expect((await send({ ...good, fullName: "Farid Ismail" })).status).toBe(201);
      expect(await storedCount()).toBe(before + 1);
      await t.modules.events.deliverAll();
    } finally {
      await t.db.execute(sql`drop trigger refuse_mail on mail_outbox; drop function refuse_mail()`);
    }
    const [delivery] = await t.db
      .select()
      .from(eventDelivery)
      .where(eq(eventDelivery.handler, "contact:contact.message-received"))
      .orderBy(desc(eventDelivery.createdAt))
      .limit(1);
    expect(delivery).toMatchObject({ deliveredAt: null, lastError: "the outbox could not be written" });
    // Read as it stands, without delivering what waits (t.outbox() would).
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, admin.email))).toHaveLength(already);
    expect(t.logLines.some((line) => line.includes("an event's handler failed; it will be tried again"))).toBe(true);
    expect(t.logLines.join("")).not.toContain(good.message);

    // Its pause is over: the next pass writes the email, once.
    await t.db.update(eventDelivery).set({ claimedUntil: null }).where(isNull(eventDelivery.deliveredAt));
    await t.modules.events.deliverAll();
    await t.modules.events.deliverAll();
    const sent = (await toAdmin()).filter((mail) => mail.subject === "New contact message from Farid Ismail");
    expect(sent).toHaveLength(1);
  });

  it("stores no message and emails no one when its event cannot be recorded: the two commit together", async () => {
    await makeRole((await t.signUp()).email, "Admin");
    await t.db.execute(sql`
      create function refuse_event() returns trigger language plpgsql as $$
      begin raise exception 'the event outbox could not be written'; end $$;
      create trigger refuse_event before insert on event_outbox for each row execute function refuse_event()`);
    const before = await storedCount();
    try {
      expect((await send({ ...good, fullName: "Rosli Hamid" })).status).toBe(500);
    } finally {
      await t.db.execute(sql`drop trigger refuse_event on event_outbox; drop function refuse_event()`);
    }
    await t.modules.events.deliverAll();
    expect(await storedCount()).toBe(before);
    expect((await t.outbox()).filter((mail) => mail.subject.includes("Rosli Hamid"))).toEqual([]);
  });

  it("emails each Admin once when two instances deliver at the same time, and nothing when the message is refused", async () => {
    const admins = [await t.signUp(), await t.signUp()];
    for (const admin of admins) await makeRole(admin.email, "Admin");
    const second = createEventOutbox({ db: t.db, logger: t.logger });
    second.register(moduleFaces(t.modules));
    const clientIp = newAddress();
    for (let i = 0; i < CONTACT_MESSAGES_PER_HOUR + 1; i++) {
      await send({ ...good, fullName: `Nadia ${i}` }, { clientIp });
    }

    await Promise.all([t.modules.events.deliverAll(), second.deliverAll(), t.modules.events.deliverAll()]);

    const fromNadia = (await t.outbox()).filter((mail) => mail.subject.startsWith("New contact message from Nadia"));
    for (const admin of admins) {
      const theirs = fromNadia.filter((mail) => mail.to === admin.email).map((mail) => mail.subject);
      const expected = Array.from(
        { length: CONTACT_MESSAGES_PER_HOUR },
        (_, i) => `New contact message from Nadia ${i}`,
      );
      expect(theirs.sort()).toEqual(expected.sort());
    }
  });
});
