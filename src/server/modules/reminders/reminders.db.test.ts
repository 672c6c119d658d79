import { asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { mailOutbox, reviewReminder, user as userTable } from "#server/db/schema";
import { createReviewService } from "#server/modules/review/review.service";
import { FIXTURE_COURSE } from "#tests/fixtures/course";
import { createTestApp, ORIGIN } from "#tests/test-app";
import { createReminders, UNSUBSCRIBE_LINK_DAYS, unsubscribeToken } from "./reminders.service";

/**
 * The review reminder's scan and its unsubscribe links, through HTTP on the fixture course, with a
 * fake clock the tests move: the scan, review and the app's unsubscribe routes all go by it.
 */
const t = await createTestApp({}, { course: FIXTURE_COURSE });

const DAY = 24 * 60 * 60_000;
/** A Monday in March: London is on UTC, New York five hours behind, Kuala Lumpur eight ahead. */
const EVENING = new Date("2027-03-01T18:00:00.000Z");
let clock = EVENING;

const review = createReviewService({
  db: t.db,
  course: t.course,
  now: () => clock,
  settings: t.modules.settings.service,
  progress: t.modules.progress.service,
  answers: t.modules.answers.service,
});
/** The app with review, settings and reminders (the unsubscribe links' expiry) on the fake clock. */
const app = t.appWith({ review, now: () => clock });
const reminders = createReminders({
  db: t.db,
  settings: t.modules.settings.service,
  review,
  mailer: t.mailer,
  publicUrl: ORIGIN,
  secret: t.env.AUTH_SECRET,
  logger: t.logger,
  now: () => clock,
});

beforeEach(() => {
  clock = EVENING;
});

const NOT_VALID = "This unsubscribe link is not valid.";
const EXPIRED =
  "This unsubscribe link has expired. Turn reminder emails off in Settings, or use the link in a newer reminder.";
const NO_LONGER =
  "This unsubscribe link no longer works. Turn reminder emails off in Settings, or use the link in a newer reminder.";

/** A learner with cards due, email notifications on and a verified address, reminded at `hour` in `timeZone`. */
async function remindable(timeZone: string, hour: number) {
  const { user, cookie } = await t.signedInUser();
  const saved = await t.request("/api/settings", {
    method: "PATCH",
    cookie,
    json: { timeZone, reminderHour: hour, emailNotifications: true },
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
  const [row] = await t.db
    .update(userTable)
    .set({ emailVerified: true })
    .where(eq(userTable.email, user.email))
    .returning({ id: userTable.id });
  // Starting day 1's phrase cards meets its phrases: their review cards are due at once.
  const started = await t.request("/api/progress/chapter-1/day-1/codebook:review-vocab", {
    method: "PUT",
    cookie,
    json: { status: "in-progress" },
  });
  expect(started.status).toBe(200);
  return { ...user, id: row!.id, cookie };
}

/** The reminders in the outbox for an address, with the header fields they are sent with. */
const remindersTo = (email: string) =>
  t.db
    .select({ text: mailOutbox.body, headers: mailOutbox.headers })
    .from(mailOutbox)
    .where(sql`${mailOutbox.recipient} = ${email} and ${mailOutbox.link} = ${`${ORIGIN}/review`}`)
    .orderBy(asc(mailOutbox.createdAt));

/** The token of the unsubscribe link in the learner's latest reminder. */
async function latestToken(email: string): Promise<string> {
  const sent = await remindersTo(email);
  const link = /Stop these reminders: (\S+)/.exec(sent.at(-1)!.text)![1]!;
  return new URL(link).searchParams.get("token")!;
}

/** What an unsubscribe may change: the notification switch and the key of every account. */
const accounts = () =>
  t.db
    .select({ id: userTable.id, on: userTable.emailNotifications, key: userTable.unsubscribeKey })
    .from(userTable)
    .orderBy(asc(userTable.id));

async function notificationsOf(id: string) {
  const [row] = await t.db.select({ on: userTable.emailNotifications }).from(userTable).where(eq(userTable.id, id));
  return row!.on;
}

const unsubscribe = (token: string) =>
  app.request("/api/reminders/unsubscribe", {
    method: "POST",
    headers: { "content-type": "application/json", origin: ORIGIN },
    body: JSON.stringify({ token }),
  });

/** A mail client's one-click unsubscribe (RFC 8058): no cookie, no Origin, a form body. */
const oneClick = (token: string, body: BodyInit = new URLSearchParams({ "List-Unsubscribe": "One-Click" })) =>
  app.request(`/api/reminders/one-click?token=${encodeURIComponent(token)}`, { method: "POST", body });

async function expectRefused(response: Response, message: string) {
  expect(response.status, await response.clone().text()).toBe(400);
  const { error } = await response.json();
  expect(error).toMatchObject({ code: "BAD_REQUEST", message });
}

describe("the reminder scan", () => {
  it("picks the learners whose reminder hour it is where they are, in PostgreSQL, and no others", async () => {
    const london = await remindable("Europe/London", 18);
    const newYork = await remindable("America/New_York", 13);
    // Kathmandu is 5:45 ahead: 18:00 UTC is 23:45 there.
    const kathmandu = await remindable("Asia/Kathmandu", 23);
    // 02:00 the next day in Kuala Lumpur.
    const kualaLumpur = await remindable("Asia/Kuala_Lumpur", 18);
    const mine = [london, newYork, kathmandu, kualaLumpur].map((learner) => learner.id);

    const candidates = await t.modules.settings.service.reminderCandidates(EVENING);
    expect(
      candidates
        .filter((candidate) => mine.includes(candidate.id))
        .map(({ id, localDate }) => ({ id, localDate }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual(
      [
        { id: london.id, localDate: "2027-03-01" },
        { id: newYork.id, localDate: "2027-03-01" },
        { id: kathmandu.id, localDate: "2027-03-01" },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );

    await reminders.sendDue();
    for (const learner of [london, newYork, kathmandu]) expect(await remindersTo(learner.email)).toHaveLength(1);
    expect(await remindersTo(kualaLumpur.email)).toEqual([]);
    // Their hour, 18:00 in Kuala Lumpur, is 10:00 UTC the next day: their reminder, dated there.
    clock = new Date("2027-03-02T10:30:00.000Z");
    await reminders.sendDue();
    expect(await remindersTo(kualaLumpur.email)).toHaveLength(1);
    const [claim] = await t.db.select().from(reviewReminder).where(eq(reviewReminder.userId, kualaLumpur.id));
    expect(claim!.localDate).toBe("2027-03-02");

    // In July London is on summer time: its 18:00 is 17:00 UTC, and 18:00 UTC is 19:00 there.
    clock = new Date("2027-07-01T18:00:00.000Z");
    expect((await t.modules.settings.service.reminderCandidates(clock)).map(({ id }) => id)).not.toContain(london.id);
    clock = new Date("2027-07-01T17:05:00.000Z");
    expect((await t.modules.settings.service.reminderCandidates(clock)).map(({ id }) => id)).toContain(london.id);
    await reminders.sendDue();
    expect(await remindersTo(london.email)).toHaveLength(2);
  });

  it("keeps sending to others when a learner's zone is one PostgreSQL does not know, and logs it", async () => {
    const stranded = await remindable("Europe/London", 18);
    // Stored before zones were checked, or named by a runtime newer than the server's zone data.
    await t.db.update(userTable).set({ timeZone: "Mars/Olympus" }).where(eq(userTable.id, stranded.id));
    const london = await remindable("Europe/London", 18);
    clock = new Date("2027-03-03T18:00:00.000Z");
    await reminders.sendDue();
    expect(await remindersTo(london.email)).toHaveLength(1);
    expect(await remindersTo(stranded.email)).toEqual([]);
    expect(
      t.logLines.some((line) =>
        line.includes("no review reminder for learners whose time zone PostgreSQL does not know"),
      ),
    ).toBe(true);
  });
});

describe("the unsubscribe link", () => {
  it("goes in every reminder with RFC 8058's headers, and its token names neither the learner's id nor address", async () => {
    const me = await remindable("Europe/London", 18);
    await reminders.sendDue();
    const [sent] = await remindersTo(me.email);
    const token = await latestToken(me.email);
    expect(sent!.text).toContain(`Stop these reminders: ${ORIGIN}/unsubscribe?token=${token}`);
    expect(sent!.headers).toEqual({
      "List-Unsubscribe": `<${ORIGIN}/api/reminders/one-click?token=${token}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });

    // A random key, when it expires, and a signature: nothing of who the learner is.
    expect(token).toMatch(/^[0-9a-f]{32}\.[0-9]{10}\.[A-Za-z0-9_-]{43}$/);
    const [key, expires] = token.split(".");
    expect(Number(expires) * 1000).toBe(EVENING.getTime() + UNSUBSCRIBE_LINK_DAYS * DAY);
    const decoded = token
      .split(".")
      .flatMap((part) => [
        Buffer.from(part, "base64url").toString("latin1"),
        Buffer.from(part, "hex").toString("latin1"),
      ]);
    for (const secret of [me.id, me.email, me.email.split("@")[0]!]) {
      expect(token).not.toContain(secret);
      expect(token).not.toContain(Buffer.from(secret).toString("base64url"));
      expect(token).not.toContain(Buffer.from(secret).toString("hex"));
      for (const text of decoded) expect(text).not.toContain(secret);
    }
    // The key itself is the learner's own, never sent to them anywhere else.
    const session = await t.request("/api/auth/get-session", { cookie: me.cookie });
    expect(session.status).toBe(200);
    expect((await session.text()).replaceAll("-", "")).not.toContain(key!);
    const exported = await t.request("/api/account/export", { cookie: me.cookie });
    expect(exported.status).toBe(200);
    expect((await exported.text()).replaceAll("-", "")).not.toContain(key!);

    // Every reminder carries both headers: the next day's too, with the same unsubscribe address.
    clock = new Date("2027-03-02T18:00:00.000Z");
    await reminders.sendDue();
    const both = await remindersTo(me.email);
    expect(both).toHaveLength(2);
    for (const each of both) {
      expect(each.headers).toEqual({
        "List-Unsubscribe": expect.stringMatching(
          /^<http:\/\/localhost:3000\/api\/reminders\/one-click\?token=[^>\s]+>$/,
        ),
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
      });
    }
  });

  it("turns email notifications off with the one-click POST a mail client sends, no cookie or page needed", async () => {
    const me = await remindable("Europe/London", 18);
    const bystander = await remindable("Europe/London", 18);
    await reminders.sendDue();
    const token = await latestToken(me.email);
    const header = (await remindersTo(me.email))[0]!.headers!["List-Unsubscribe"]!;
    const target = new URL(header.slice(1, -1));

    // Without the form RFC 8058 prescribes, nothing changes.
    const before = await accounts();
    await expectRefused(
      await oneClick(token, new URLSearchParams({ "List-Unsubscribe": "Yes" })),
      'Send the form field "List-Unsubscribe=One-Click" (RFC 8058).',
    );
    await expectRefused(await oneClick(token, ""), 'Send the form field "List-Unsubscribe=One-Click" (RFC 8058).');
    expect((await app.request(`${target.pathname}${target.search}`)).status).toBe(404);
    expect(await accounts()).toEqual(before);

    const response = await app.request(`${target.pathname}${target.search}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toEqual({ emailNotifications: false });
    expect(await notificationsOf(me.id)).toBe(false);
    expect(await notificationsOf(bystander.id)).toBe(true);

    // A multipart form works too, and a second post is answered the same.
    const form = new FormData();
    form.set("List-Unsubscribe", "One-Click");
    expect((await oneClick(token, form)).status).toBe(200);
    clock = new Date("2027-03-02T18:00:00.000Z");
    await reminders.sendDue();
    expect(await remindersTo(me.email)).toHaveLength(1);
  });

  it("refuses a token with a stray character or a segment too many or too few, changing nothing", async () => {
    const me = await remindable("Europe/London", 18);
    await reminders.sendDue();
    const token = await latestToken(me.email);
    const [key, expires, mac] = token.split(".") as [string, string, string];
    const malformed = [
      `${token}x`,
      `x${token}`,
      `${token} `,
      ` ${token}`,
      `${token}\n`,
      `${token}=`,
      `${key}.${expires}.${mac.slice(0, 20)}!${mac.slice(21)}`,
      `${key.toUpperCase()}.${expires}.${mac}`,
      `${key}.0${expires}.${mac}`,
      `${key}.${expires}.${mac}.extra`,
      `v1.${token}`,
      `${key}..${expires}.${mac}`,
      `${key}.${mac}`,
      `${key}-${expires}.${mac}`,
      `${key}.${expires}`,
      token.slice(0, -1),
      ".",
      "garbage",
    ];
    const before = await accounts();
    for (const bad of malformed) {
      await expectRefused(await unsubscribe(bad), NOT_VALID);
      await expectRefused(await oneClick(bad), NOT_VALID);
    }
    // A second token parameter is not a second chance.
    const twice = await app.request(`/api/reminders/one-click?token=${token}&token=${token}`, {
      method: "POST",
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
    });
    expect(twice.status).toBe(400);
    const extra = await app.request(`/api/reminders/one-click?token=${token}&user=${me.id}`, {
      method: "POST",
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
    });
    expect(extra.status).toBe(400);
    expect(await accounts()).toEqual(before);

    expect((await unsubscribe(token)).status).toBe(200);
    expect(await notificationsOf(me.id)).toBe(false);
  });

  it("stops working 60 days after its reminder was written, changing nothing", async () => {
    const me = await remindable("Europe/London", 18);
    await reminders.sendDue();
    const token = await latestToken(me.email);
    const before = await accounts();

    clock = new Date(EVENING.getTime() + UNSUBSCRIBE_LINK_DAYS * DAY);
    await expectRefused(await unsubscribe(token), EXPIRED);
    await expectRefused(await oneClick(token), EXPIRED);
    expect(await accounts()).toEqual(before);

    clock = new Date(EVENING.getTime() + UNSUBSCRIBE_LINK_DAYS * DAY - 60_000);
    expect((await oneClick(token)).status).toBe(200);
    expect(await notificationsOf(me.id)).toBe(false);
  });

  it("stops working once the learner turns email notifications on again; the next reminder's link works", async () => {
    const me = await remindable("Europe/London", 18);
    await reminders.sendDue();
    const old = await latestToken(me.email);
    expect((await unsubscribe(old)).status).toBe(200);

    const on = await t.request("/api/settings", {
      method: "PATCH",
      cookie: me.cookie,
      json: { emailNotifications: true },
    });
    expect(on.status).toBe(200);
    const before = await accounts();
    await expectRefused(await unsubscribe(old), NO_LONGER);
    await expectRefused(await oneClick(old), NO_LONGER);
    expect(await accounts()).toEqual(before);
    expect(await notificationsOf(me.id)).toBe(true);

    // A settings change that leaves the emails on keeps the links working.
    clock = new Date("2027-03-02T18:00:00.000Z");
    await reminders.sendDue();
    const fresh = await latestToken(me.email);
    expect(fresh).not.toBe(old);
    const goal = await t.request("/api/settings", { method: "PATCH", cookie: me.cookie, json: { dailyGoal: 7 } });
    expect(goal.status).toBe(200);
    expect((await oneClick(fresh)).status).toBe(200);
    expect(await notificationsOf(me.id)).toBe(false);
  });

  it("is refused when another secret signed it, or its expiry was moved", async () => {
    const me = await remindable("Europe/London", 18);
    await reminders.sendDue();
    const [key, expires, mac] = (await latestToken(me.email)).split(".") as [string, string, string];
    const uuid = `${key.slice(0, 8)}-${key.slice(8, 12)}-${key.slice(12, 16)}-${key.slice(16, 20)}-${key.slice(20)}`;
    const otherSecret = unsubscribeToken("another-secret-another-secret-00", uuid, new Date(Number(expires) * 1000));
    const later = `${key}.${Number(expires) + 365 * 24 * 60 * 60}.${mac}`;
    const before = await accounts();
    for (const forged of [otherSecret, later]) {
      await expectRefused(await unsubscribe(forged), NOT_VALID);
      await expectRefused(await oneClick(forged), NOT_VALID);
    }
    expect(await accounts()).toEqual(before);
  });
});
