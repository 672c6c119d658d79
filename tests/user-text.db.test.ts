import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket, { WebSocketServer } from "ws";
import {
  booking,
  bookingChange,
  callMessage,
  callRecord,
  contactMessage,
  tutorFeedback,
  tutorHours,
  user,
} from "#server/db/schema";
import type { CallServerMessage } from "#server/modules/calls/calls.contract";
import { insertBooking, personAs } from "./booked-session";
import { createTestApp, newUser, ORIGIN } from "./test-app";

/**
 * What people write, through HTTP into the app on a real PostgreSQL
 * (docs/decisions/062-control-characters-in-user-text.md): a name refuses every control character,
 * a line break included; a bio, message, note, feedback or chat line keeps its lines (\r\n read as
 * \n) and tabs and refuses a lone \r and other controls. Each refusal is a 400 naming the field and
 * changes nothing. Names stored before this rule reach emails and invites as one line.
 */
const t = await createTestApp();
const server = serve({
  fetch: t.app.fetch,
  port: 0,
  hostname: "127.0.0.1",
  websocket: { server: new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 }) },
});
const sockets: WebSocket[] = [];
afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await new Promise((resolve) => server.close(resolve));
});

/** What a one-line field refuses: a carriage return, a line feed, NUL, a bell, a right-to-left override. */
const NOT_ONE_LINE = ["Siti\rAminah", "Siti\nAminah", "Siti\r\nAminah", "Siti\u0000", "Siti\u0007", "Siti\u202eAminah"];
/** What a multi-line field refuses: a lone carriage return, NUL, a bell, a form feed. */
const NOT_LINES = ["Hello\rthere", "Hello\u0000", "Hello\u0007there", "Hello\fthere"];
/** What a multi-line field takes, and stores as the second. */
const LINES = ["Terima kasih!\r\nSee you\tsoon.", "Terima kasih!\nSee you\tsoon."] as const;

const ONE_LINE_MESSAGE = (subject: string) => `${subject} cannot contain line breaks or control characters.`;
const LINES_MESSAGE = (subject: string) =>
  `${subject} cannot contain control characters other than line breaks and tabs.`;

/** A 400 whose body names the field's rule; NUL is refused earlier for every JSON body, in its own words. */
async function expectRefused(response: Response, message: string, sent: string) {
  const text = await response.text();
  expect(response.status, `${JSON.stringify(sent)}: ${text}`).toBe(400);
  expect(text).toContain(sent.includes("\u0000") ? "U+0000" : message);
}

const upcoming = (days = 3) => new Date(Date.now() + days * 24 * 60 * 60_000);

describe("a name", () => {
  it("is refused at sign-up with a line break or any control character, and no account is made", async () => {
    for (const name of NOT_ONE_LINE) {
      for (const [field, subject] of [
        ["firstName", "Your first name"],
        ["lastName", "Your last name"],
      ] as const) {
        const person = { ...newUser(), [field]: name };
        const response = await t.request("/api/auth/sign-up/email", {
          method: "POST",
          json: { ...person, name: "A B" },
        });
        expect(response.status, JSON.stringify(name)).toBe(400);
        expect(((await response.json()) as { message: string }).message).toBe(ONE_LINE_MESSAGE(subject));
        expect(await t.db.select().from(user).where(eq(user.email, person.email))).toEqual([]);
      }
    }
  });

  it("is refused in a profile update, first, last or nickname, leaving the profile as it was", async () => {
    const me = await personAs(t);
    const before = await t.db.select().from(user).where(eq(user.id, me.id));
    for (const name of NOT_ONE_LINE) {
      for (const [field, subject] of [
        ["firstName", "Your first name"],
        ["lastName", "Your last name"],
        ["nickname", "Your nickname"],
      ] as const) {
        const json = { firstName: "Siti", lastName: "Aminah", nickname: "Echa", [field]: name };
        const response = await t.request("/api/profile", { method: "PATCH", cookie: me.cookie, json });
        await expectRefused(response, ONE_LINE_MESSAGE(subject), name);
      }
    }
    expect(await t.db.select().from(user).where(eq(user.id, me.id))).toEqual(before);
    const fine = await t.request("/api/profile", {
      method: "PATCH",
      cookie: me.cookie,
      json: { firstName: "Nur Aisyah", lastName: "O'Brien", nickname: 'Aisyah "Echa"' },
    });
    expect(fine.status).toBe(200);
  });

  it("is refused on the contact form, and so is a message with a lone carriage return; lines are kept", async () => {
    const count = async () => (await t.db.select().from(contactMessage)).length;
    const before = await count();
    const send = (json: object, client: number) =>
      t.request("/api/contact", { method: "POST", json, clientIp: `10.9.0.${client}` });
    let client = 0;
    for (const name of NOT_ONE_LINE) {
      client += 1;
      const response = await send({ fullName: name, email: "siti@example.com", message: "Hello" }, client);
      await expectRefused(response, ONE_LINE_MESSAGE("Your full name"), name);
    }
    for (const message of NOT_LINES) {
      client += 1;
      const response = await send({ fullName: "Siti", email: "siti@example.com", message }, client);
      await expectRefused(response, LINES_MESSAGE("Your message"), message);
    }
    expect(await count()).toBe(before);
    expect((await send({ fullName: "Siti", email: "siti@example.com", message: LINES[0] }, 99)).status).toBe(201);
    const [stored] = await t.db.select().from(contactMessage).where(eq(contactMessage.email, "siti@example.com"));
    expect(stored!.message).toBe(LINES[1]);
  });
});

describe("a message, note or bio", () => {
  it("is refused as a tutor's feedback with a lone carriage return or a control character; lines are kept", async () => {
    const [tutor, learner] = [await personAs(t, "Tutor"), await personAs(t)];
    const send = (feedback: string) =>
      t.request("/api/feedback", {
        method: "POST",
        cookie: tutor.cookie,
        json: { studentId: learner.id, chapterId: "chapter-1", dayId: "day-1", feedback },
      });
    for (const feedback of NOT_LINES)
      await expectRefused(await send(feedback), LINES_MESSAGE("Your feedback"), feedback);
    expect(await t.db.select().from(tutorFeedback).where(eq(tutorFeedback.studentId, learner.id))).toEqual([]);
    expect((await send(LINES[0])).status).toBe(201);
    const [note] = await t.db.select().from(tutorFeedback).where(eq(tutorFeedback.studentId, learner.id));
    expect(note!.feedback).toBe(LINES[1]);
  });

  it("is refused in a tutor's bio and languages, leaving their hours as they were", async () => {
    const tutor = await personAs(t, "Tutor");
    const hours = {
      timeZone: "Asia/Kuala_Lumpur",
      bio: "Cikgu from Ipoh.",
      languages: ["Malay"],
      sessionMinutes: 30,
      noticeHours: 12,
      horizonDays: 28,
      weekly: [{ weekday: 1, ranges: [{ start: "09:00", end: "10:00" }] }],
      exceptions: [],
    };
    const save = (json: object) => t.request("/api/bookings/hours", { method: "PUT", cookie: tutor.cookie, json });
    expect((await save(hours)).status).toBe(200);
    const before = await t.db.select().from(tutorHours).where(eq(tutorHours.userId, tutor.id));
    for (const bio of NOT_LINES) await expectRefused(await save({ ...hours, bio }), LINES_MESSAGE("Your bio"), bio);
    for (const language of NOT_ONE_LINE) {
      await expectRefused(await save({ ...hours, languages: [language] }), ONE_LINE_MESSAGE("A language"), language);
    }
    expect(await t.db.select().from(tutorHours).where(eq(tutorHours.userId, tutor.id))).toEqual(before);
  });

  it("is refused as a booking's message or cancel reason, sending no email and leaving the booking as it was", async () => {
    const [tutor, learner] = [await personAs(t, "Tutor"), await personAs(t)];
    const bookingId = await insertBooking(t, { tutorId: tutor.id, learnerId: learner.id, startsAt: upcoming() });
    const snapshot = async () => ({
      booking: await t.db.select().from(booking).where(eq(booking.id, bookingId)),
      changes: await t.db.select().from(bookingChange).where(eq(bookingChange.bookingId, bookingId)),
      mail: (await t.outbox()).length,
    });
    const before = await snapshot();
    for (const text of NOT_LINES) {
      const message = await t.request(`/api/bookings/${bookingId}/messages`, {
        method: "POST",
        cookie: learner.cookie,
        json: { text },
      });
      await expectRefused(message, LINES_MESSAGE("Your message"), text);
      const cancel = await t.request(`/api/bookings/${bookingId}/cancel`, {
        method: "POST",
        cookie: tutor.cookie,
        json: { reason: text },
      });
      await expectRefused(cancel, LINES_MESSAGE("Your reason"), text);
    }
    expect(await snapshot()).toEqual(before);
  });

  it("is refused as the tutor's notes or a chat line in the session's room, storing nothing", async () => {
    const [tutor, learner] = [await personAs(t, "Tutor"), await personAs(t)];
    const bookingId = await insertBooking(t, {
      tutorId: tutor.id,
      learnerId: learner.id,
      startsAt: new Date(Date.now() + 2 * 60_000),
    });
    const notes = (text: string) =>
      t.request(`/api/calls/${bookingId}/notes`, { method: "PUT", cookie: tutor.cookie, json: { notes: text } });
    expect((await notes("Good start.")).status).toBe(200);
    const before = await t.db.select().from(callRecord).where(eq(callRecord.bookingId, bookingId));
    for (const text of NOT_LINES) await expectRefused(await notes(text), LINES_MESSAGE("Your notes"), text);
    expect(await t.db.select().from(callRecord).where(eq(callRecord.bookingId, bookingId))).toEqual(before);

    const port = (server.address() as AddressInfo).port;
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/calls/${bookingId}/signal`, {
      headers: { cookie: learner.cookie, origin: ORIGIN },
    });
    sockets.push(socket);
    const received: CallServerMessage[] = [];
    socket.on("message", (data) => received.push(JSON.parse(String(data)) as CallServerMessage));
    await new Promise<void>((resolve) => socket.once("open", () => resolve()));
    const answers = () => received.filter((message) => message.type === "error" || message.type === "chat");
    for (const [index, text] of NOT_LINES.entries()) {
      socket.send(JSON.stringify({ type: "chat", text }));
      await until(() => answers().length > index, "the room to answer the chat line");
    }
    socket.send(JSON.stringify({ type: "chat", text: LINES[0] }));
    await until(() => answers().length > NOT_LINES.length, "the room to take the chat line");
    expect(answers()).toEqual([
      ...NOT_LINES.map(() => ({ type: "error", message: LINES_MESSAGE("Your message") })),
      { type: "chat", message: expect.objectContaining({ text: LINES[1] }) },
    ]);
    const stored = await t.db.select().from(callMessage).where(eq(callMessage.bookingId, bookingId));
    expect(stored.map((row) => row.text)).toEqual([LINES[1]]);
  });
});

describe("a name stored before the rule", () => {
  it("reaches the invite as the attendee's name, never their address, and emails as one line", async () => {
    const [tutor, learner] = [await personAs(t, "Tutor"), await personAs(t)];
    // Rows as an older version could write them.
    const attacker = 'E":mailto:attacker@evil.example?body=';
    await t.db.update(user).set({ nickname: attacker }).where(eq(user.id, learner.id));
    await t.db
      .update(user)
      .set({ firstName: "Siti\r\nAminah", lastName: "Tan\u0007", nickname: null })
      .where(eq(user.id, tutor.id));
    const bookingId = await insertBooking(t, { tutorId: tutor.id, learnerId: learner.id, startsAt: upcoming() });

    const response = await t.request(`/api/bookings/${bookingId}/invite.ics`, { cookie: learner.cookie });
    expect(response.status).toBe(200);
    const event = new ICAL.Component(ICAL.parse(await response.text())).getFirstSubcomponent("vevent")!;
    expect(
      event
        .getAllProperties("attendee")
        .map((property) => [String(property.getFirstValue()), property.getParameter("cn")]),
    ).toEqual([
      [`mailto:${tutor.email}`, "Siti Aminah Tan"],
      [`mailto:${learner.email}`, attacker],
    ]);
    expect(event.getFirstPropertyValue("description")).toContain(`Siti Aminah Tan (tutor) and ${attacker} (learner).`);

    const mailBefore = (await t.outbox()).length;
    const sent = await t.request(`/api/bookings/${bookingId}/messages`, {
      method: "POST",
      cookie: learner.cookie,
      json: { text: "Boleh kita mula awal?" },
    });
    expect(sent.status, await sent.clone().text()).toBeLessThan(300);
    const [mail] = (await t.outbox()).slice(mailBefore);
    expect(mail!.to).toBe(tutor.email);
    expect(mail!.text.split("\n")[0]).toBe("Hi Siti Aminah Tan,");
    expect(mail!.subject).not.toMatch(/[\r\n]/);
  });

  it("greets the learner on one line in the verification email", async () => {
    const person = newUser();
    await t.signUp(person);
    await t.db.update(user).set({ name: "Siti\nAminah" }).where(eq(user.email, person.email));
    const mailBefore = (await t.outbox()).length;
    const response = await t.request("/api/auth/send-verification-email", {
      method: "POST",
      json: { email: person.email },
    });
    expect(response.status).toBe(200);
    const [mail] = (await t.outbox()).slice(mailBefore);
    expect(mail!.text.split("\n")[0]).toBe("Selamat datang, Siti Aminah!");
  });
});

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
