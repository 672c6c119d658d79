import { and, asc, count, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import type { Role } from "#course/roles";
import { VOICE_CONSENT } from "#course/voices";
import { NO_SUCH_USER } from "#server/db/accounts";
import { eventOutbox, user as userTable, voice, voiceConsent } from "#server/db/schema";
import { createTestApp } from "#tests/test-app";
import { ALREADY_A_VOICE, NO_SUCH_VOICE, NOT_A_VOICE, VOICE_NEEDS_STAFF } from "./voices.service";

const t = await createTestApp();
const PASSWORD = "kopi-o-kosong";
const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

async function personAs(role: Role, names: { firstName?: string; lastName?: string } = {}) {
  const { user, cookie } = await t.signedInUser(names);
  const [row] = await t.db
    .update(userTable)
    .set({ role })
    .where(eq(userTable.email, user.email))
    .returning({ id: userTable.id });
  return { id: row!.id, email: user.email, cookie };
}

type Person = Awaited<ReturnType<typeof personAs>>;

const grant = (cookie: string | undefined, json: unknown) => t.request("/api/voices", { method: "POST", cookie, json });
const change = (cookie: string | undefined, userId: string, json: unknown) =>
  t.request(`/api/voices/${encodeURIComponent(userId)}`, { method: "PATCH", cookie, json });
const revoke = (cookie: string | undefined, userId: string) =>
  t.request(`/api/voices/${encodeURIComponent(userId)}`, { method: "DELETE", cookie });
const mine = (cookie: string | undefined) => t.request("/api/voices/me", { cookie });
const consent = (cookie: string | undefined) => t.request("/api/voices/me/consent", { method: "POST", cookie });
const withdraw = (cookie: string | undefined) => t.request("/api/voices/me/consent", { method: "DELETE", cookie });

const grantsOf = (userId: string) => t.db.select().from(voice).where(eq(voice.userId, userId));
const consentsOf = (userId: string) =>
  t.db.select().from(voiceConsent).where(eq(voiceConsent.userId, userId)).orderBy(asc(voiceConsent.consentedAt));
/** The `voices.consent-withdrawn` events recorded about `userId`. */
const withdrawals = (userId: string) =>
  t.db
    .select({ payload: eventOutbox.payload })
    .from(eventOutbox)
    .where(and(eq(eventOutbox.name, "voices.consent-withdrawn"), sql`${eventOutbox.payload}->>'userId' = ${userId}`));
async function tableCounts() {
  const [grants] = await t.db.select({ n: count() }).from(voice);
  const [consents] = await t.db.select({ n: count() }).from(voiceConsent);
  return { grants: grants!.n, consents: consents!.n };
}

/** `person` made a voice by `admin` through the API. */
async function voiceOf(admin: Person, person: Person, creditedName = "Aina", accent = "kuala-lumpur") {
  const response = await grant(admin.cookie, { userId: person.id, creditedName, accent });
  expect(response.status, await response.clone().text()).toBe(201);
}

let admin: Person;
beforeEach(async () => {
  admin = await personAs("Admin", { firstName: "Farid", lastName: "Ismail" });
});

describe("an Admin's grants", () => {
  it("names a Tutor a voice with a credited name and accent, by the signed-in Admin, and lists it", async () => {
    const tutor = await personAs("Tutor", { firstName: "Nur", lastName: "Aina" });
    const response = await grant(admin.cookie, { userId: tutor.id, creditedName: "  Aina ", accent: "kelantan" });
    expect(response.status).toBe(201);
    const listed = {
      userId: tutor.id,
      name: "Nur Aina",
      email: tutor.email,
      role: "Tutor",
      creditedName: "Aina",
      accent: "kelantan",
      grantedAt: iso,
      grantedBy: "Farid Ismail",
      consentedAt: null,
      withdrawnAt: null,
      mayRecord: false,
    };
    expect(await response.json()).toEqual({ voice: listed });
    expect(await grantsOf(tutor.id)).toEqual([
      expect.objectContaining({ creditedName: "Aina", accent: "kelantan", grantedBy: admin.id }),
    ]);
    const list = (await (await t.request("/api/voices", { cookie: admin.cookie })).json()).voices;
    expect(list).toContainEqual(listed);
  });

  it("names an Admin a voice, themself included", async () => {
    expect((await grant(admin.cookie, { userId: admin.id, creditedName: "Cikgu Farid", accent: "johor" })).status).toBe(
      201,
    );
    expect(await grantsOf(admin.id)).toHaveLength(1);
  });

  it("refuses a Student with 422 and a message saying why, storing nothing", async () => {
    const learner = await personAs("Student");
    const before = await tableCounts();
    const response = await grant(admin.cookie, { userId: learner.id, creditedName: "Aina", accent: "johor" });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: { code: "VOICE_NEEDS_STAFF", message: VOICE_NEEDS_STAFF } });
    expect(await tableCounts()).toEqual(before);
  });

  it("answers 404 for an unknown user and 409 for a voice granted twice, changing nothing", async () => {
    const unknown = await grant(admin.cookie, { userId: "no-such-user", creditedName: "Aina", accent: "johor" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toBe(NO_SUCH_USER);
    const tutor = await personAs("Tutor");
    await voiceOf(admin, tutor, "Aina", "johor");
    const twice = await grant(admin.cookie, { userId: tutor.id, creditedName: "Someone else", accent: "sabah" });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toEqual({ error: { code: "ALREADY_A_VOICE", message: ALREADY_A_VOICE } });
    expect(await grantsOf(tutor.id)).toEqual([expect.objectContaining({ creditedName: "Aina", accent: "johor" })]);
  });

  it.each([
    [
      "a line break in the name",
      { creditedName: "Aina\nKL" },
      "The credited name cannot contain line breaks or control characters.",
    ],
    [
      "a tab in the name",
      { creditedName: "Aina\tKL" },
      "The credited name cannot contain line breaks or control characters.",
    ],
    [
      "a bidi override in the name",
      { creditedName: "Aina\u202Egnik" },
      "The credited name cannot contain line breaks or control characters.",
    ],
    ["an empty name", { creditedName: "   " }, "The credited name is required."],
    ["a name too long", { creditedName: "a".repeat(61) }, "The credited name must be at most 60 characters."],
    ["no name", { creditedName: undefined }, "The credited name is required."],
    ["an accent not on the list", { accent: "jakarta" }, "Choose an accent from the list."],
    ["no accent", { accent: undefined }, "The accent is required."],
  ])("refuses a grant with %s: 400 naming it, nothing stored", async (_label, fields, message) => {
    const tutor = await personAs("Tutor");
    const before = await tableCounts();
    const response = await grant(admin.cookie, { userId: tutor.id, creditedName: "Aina", accent: "johor", ...fields });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(message);
    expect(await tableCounts()).toEqual(before);
  });

  it("refuses a grant that names who granted it: the Admin is the signed-in one", async () => {
    const tutor = await personAs("Tutor");
    const other = await personAs("Admin");
    const response = await grant(admin.cookie, {
      userId: tutor.id,
      creditedName: "Aina",
      accent: "johor",
      grantedBy: other.id,
    });
    expect(response.status).toBe(400);
    expect(await grantsOf(tutor.id)).toEqual([]);
  });

  it("changes a voice's credited name and accent, and refuses a bad change, changing nothing", async () => {
    const tutor = await personAs("Tutor");
    await voiceOf(admin, tutor);
    const changed = await change(admin.cookie, tutor.id, { creditedName: "Kak Aina", accent: "terengganu" });
    expect(changed.status).toBe(200);
    expect((await changed.json()).voice).toMatchObject({ creditedName: "Kak Aina", accent: "terengganu" });
    const accentOnly = await change(admin.cookie, tutor.id, { accent: "sarawak" });
    expect((await accentOnly.json()).voice).toMatchObject({ creditedName: "Kak Aina", accent: "sarawak" });

    const stored = await grantsOf(tutor.id);
    for (const [body, message] of [
      [{ creditedName: "Kak\u0007Aina" }, "The credited name cannot contain line breaks or control characters."],
      [{}, "Send a credited name or an accent to change."],
      [{ accent: "bandung" }, "Choose an accent from the list."],
      // Who the voice is comes from the path, never the body.
      [{ accent: "johor", userId: admin.id }, null],
    ] as const) {
      const response = await change(admin.cookie, tutor.id, body);
      expect(response.status).toBe(400);
      if (message) expect((await response.json()).error.message).toBe(message);
    }
    expect(await grantsOf(tutor.id)).toEqual(stored);
    const unknown = await change(admin.cookie, (await personAs("Tutor")).id, { accent: "johor" });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toBe(NO_SUCH_VOICE);
  });

  it("revokes a grant: it is gone, its standing consent withdrawn with the event, the consent kept", async () => {
    const tutor = await personAs("Tutor");
    await voiceOf(admin, tutor);
    expect((await consent(tutor.cookie)).status).toBe(200);
    const response = await revoke(admin.cookie, tutor.id);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ revoked: tutor.id });
    expect(await grantsOf(tutor.id)).toEqual([]);
    const [kept] = await consentsOf(tutor.id);
    expect(kept!.withdrawnAt).toBeInstanceOf(Date);
    expect((await withdrawals(tutor.id)).map((row) => row.payload)).toEqual([
      { userId: tutor.id, consentId: kept!.id },
    ]);
    expect(await t.modules.voices.service.mayRecord(tutor.id)).toBe(false);
    expect((await revoke(admin.cookie, tutor.id)).status).toBe(404);
    // No longer a voice: told so, and refused a consent.
    expect((await (await mine(tutor.cookie)).json()).voice).toBeNull();
    expect((await consent(tutor.cookie)).status).toBe(403);
  });

  it("is for Admins only: Tutors and learners get 403, visitors 401, and nothing changes", async () => {
    const tutor = await personAs("Tutor");
    const learner = await personAs("Student");
    await voiceOf(admin, tutor);
    const before = await grantsOf(tutor.id);
    for (const cookie of [tutor.cookie, learner.cookie, undefined]) {
      const status = cookie ? 403 : 401;
      expect((await t.request("/api/voices", { cookie })).status).toBe(status);
      expect((await grant(cookie, { userId: tutor.id, creditedName: "X", accent: "johor" })).status).toBe(status);
      expect((await change(cookie, tutor.id, { creditedName: "Someone" })).status).toBe(status);
      expect((await revoke(cookie, tutor.id)).status).toBe(status);
    }
    expect(await grantsOf(tutor.id)).toEqual(before);
  });
});

describe("the voice's own consent", () => {
  it("tells staff who are no voice so, and refuses learners", async () => {
    const tutor = await personAs("Tutor");
    const response = await mine(tutor.cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      voice: null,
      consentText: { version: VOICE_CONSENT.version, paragraphs: VOICE_CONSENT.paragraphs },
    });
    const learner = await mine((await personAs("Student")).cookie);
    expect(learner.status).toBe(403);
    expect((await learner.json()).error.message).toBe(NOT_A_VOICE);
    expect((await mine(undefined)).status).toBe(401);
  });

  it("gives consent to the current words with its date, once, and then the voice may record", async () => {
    const tutor = await personAs("Tutor");
    await voiceOf(admin, tutor, "Aina", "kelantan");
    expect((await (await mine(tutor.cookie)).json()).voice).toEqual({
      creditedName: "Aina",
      accent: "kelantan",
      grantedAt: iso,
      consent: null,
      withdrawnAt: null,
      mayRecord: false,
    });
    expect(await t.modules.voices.service.mayRecord(tutor.id)).toBe(false);

    const given = await consent(tutor.cookie);
    expect(given.status).toBe(200);
    const { voice: after } = await given.json();
    expect(after).toMatchObject({
      consent: { version: VOICE_CONSENT.version, consentedAt: iso },
      withdrawnAt: null,
      mayRecord: true,
    });
    const rows = await consentsOf(tutor.id);
    expect(rows).toEqual([expect.objectContaining({ version: VOICE_CONSENT.version, withdrawnAt: null })]);
    expect(rows[0]!.consentedAt.toISOString()).toBe(after.consent.consentedAt);
    expect(await t.modules.voices.service.mayRecord(tutor.id)).toBe(true);

    // Given again while it stands: the first consent stays, with its date.
    const again = await consent(tutor.cookie);
    expect((await again.json()).voice.consent).toEqual(after.consent);
    expect(await consentsOf(tutor.id)).toEqual(rows);
  });

  it("withdraws consent with its date and the event, in its transaction; a consent given again is a new one", async () => {
    const tutor = await personAs("Tutor");
    await voiceOf(admin, tutor);
    await consent(tutor.cookie);
    const response = await withdraw(tutor.cookie);
    expect(response.status).toBe(200);
    const { voice: withdrawn } = await response.json();
    expect(withdrawn).toMatchObject({ consent: null, withdrawnAt: iso, mayRecord: false });
    const [first] = await consentsOf(tutor.id);
    expect(first!.withdrawnAt!.toISOString()).toBe(withdrawn.withdrawnAt);
    expect((await withdrawals(tutor.id)).map((row) => row.payload)).toEqual([
      { userId: tutor.id, consentId: first!.id },
    ]);
    expect(await t.modules.voices.service.mayRecord(tutor.id)).toBe(false);

    // Nothing stands: withdrawing again records nothing.
    expect((await withdraw(tutor.cookie)).status).toBe(200);
    expect(await withdrawals(tutor.id)).toHaveLength(1);

    const renewed = await (await consent(tutor.cookie)).json();
    expect(renewed.voice).toMatchObject({ withdrawnAt: null, mayRecord: true });
    expect(await consentsOf(tutor.id)).toEqual([
      expect.objectContaining({ id: first!.id, withdrawnAt: expect.any(Date) }),
      expect.objectContaining({ withdrawnAt: null }),
    ]);
  });

  it("refuses a Tutor who is no voice and a learner with 403, and visitors with 401, writing nothing", async () => {
    const tutor = await personAs("Tutor");
    const learner = await personAs("Student");
    const before = await tableCounts();
    for (const cookie of [tutor.cookie, learner.cookie]) {
      for (const response of [await consent(cookie), await withdraw(cookie)]) {
        expect(response.status).toBe(403);
        expect((await response.json()).error).toEqual({ code: "FORBIDDEN", message: NOT_A_VOICE });
      }
    }
    expect((await consent(undefined)).status).toBe(401);
    expect((await withdraw(undefined)).status).toBe(401);
    expect(await tableCounts()).toEqual(before);
  });

  it("stops a voice made a Student from recording and consenting, and still lets them withdraw", async () => {
    const tutor = await personAs("Tutor");
    await voiceOf(admin, tutor);
    await consent(tutor.cookie);
    await t.db.update(userTable).set({ role: "Student" }).where(eq(userTable.id, tutor.id));
    expect(await t.modules.voices.service.mayRecord(tutor.id)).toBe(false);
    expect((await (await mine(tutor.cookie)).json()).voice).toMatchObject({ mayRecord: false });
    const listed = (await (await t.request("/api/voices", { cookie: admin.cookie })).json()).voices;
    expect(listed.find((each: { userId: string }) => each.userId === tutor.id)).toMatchObject({
      role: "Student",
      mayRecord: false,
    });
    expect((await withdraw(tutor.cookie)).status).toBe(200);
    expect((await consent(tutor.cookie)).status).toBe(403);
    expect((await consentsOf(tutor.id)).every((row) => row.withdrawnAt !== null)).toBe(true);
  });
});

describe("the account", () => {
  it("exports the grant and every consent, and its deletion takes them; the granter's only leaves a blank", async () => {
    const tutor = await personAs("Tutor");
    await voiceOf(admin, tutor, "Aina", "sabah");
    await consent(tutor.cookie);
    await withdraw(tutor.cookie);
    await consent(tutor.cookie);
    const exported = await (await t.request("/api/account/export", { cookie: tutor.cookie })).json();
    expect(exported.voice).toEqual({ creditedName: "Aina", accent: "sabah", grantedAt: iso, updatedAt: iso });
    expect(exported.voiceConsents).toEqual([
      { version: VOICE_CONSENT.version, consentedAt: iso, withdrawnAt: iso },
      { version: VOICE_CONSENT.version, consentedAt: iso, withdrawnAt: null },
    ]);
    const learner = await (
      await t.request("/api/account/export", { cookie: (await personAs("Student")).cookie })
    ).json();
    expect([learner.voice, learner.voiceConsents]).toEqual([null, []]);

    const deleteAccount = (cookie: string) =>
      t.request("/api/account", { method: "DELETE", cookie, json: { password: PASSWORD } });
    await personAs("Admin"); // Jalan keeps one Admin: the granter may go.
    expect((await deleteAccount(admin.cookie)).status).toBe(200);
    expect(await grantsOf(tutor.id)).toEqual([expect.objectContaining({ grantedBy: null })]);
    expect((await deleteAccount(tutor.cookie)).status).toBe(200);
    expect(await grantsOf(tutor.id)).toEqual([]);
    expect(await consentsOf(tutor.id)).toEqual([]);
  });
});
