import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { user as userTable } from "#server/db/schema";
import { createTestApp, newUser, ORIGIN } from "#tests/test-app";
import { totpCode } from "#tests/totp";

const t = await createTestApp();

/** Where every request of this file comes from, so the audit lines can be checked for it. */
const CLIENT_IP = "198.51.100.23";

/** Every secret the sequence below sends or receives; none may appear in any log line. */
const secrets = new Map<string, string>();
function secret(label: string, value: string | null | undefined) {
  // Short values (a 6-digit code, a flag) would match by chance and prove nothing.
  if (value && value.length >= 12) secrets.set(value, label);
}

/** A password no log line could contain by chance. */
const password = (label: string) => {
  const value = `${label}-${randomBytes(8).toString("hex")}`;
  secret(`password (${label})`, value);
  return value;
};

/**
 * t.request, keeping every cookie the server sets as a secret: the raw value, URL-decoded, and the
 * session token before the signature's dot, the part Better Auth stores.
 */
async function request(pathname: string, init: Parameters<typeof t.request>[1] = {}) {
  const response = await t.request(pathname, { clientIp: CLIENT_IP, ...init });
  for (const header of response.headers.getSetCookie()) {
    const pair = header.split(";")[0]!;
    const name = pair.slice(0, pair.indexOf("="));
    const value = pair.slice(pair.indexOf("=") + 1);
    const decoded = decodeURIComponent(value);
    secret(`cookie ${name}`, value);
    secret(`cookie ${name} (decoded)`, decoded);
    secret(`cookie ${name} (token)`, decoded.split(".")[0]);
  }
  return response;
}

function cookieOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

async function signIn(email: string, pass: string) {
  const response = await request("/api/auth/sign-in/email", { method: "POST", json: { email, password: pass } });
  if (response.status === 200) {
    const body = await response.clone().json();
    secret("token in the sign-in answer", body.token);
  }
  return response;
}

async function idOf(email: string): Promise<string> {
  const [row] = await t.db.select({ id: userTable.id }).from(userTable).where(eq(userTable.email, email));
  return row!.id;
}

interface LogEntry {
  audit?: string;
  msg: string;
  time: string;
  [field: string]: unknown;
}

const learner = newUser();
const admin = newUser();
let learnerId = "";
let adminId = "";
let resetToken = "";

/**
 * One learner's whole account life and some staff work, through the real app: sign-up, sign-in
 * right and wrong, password change, a password reset by email, two-factor sign-in, progress, a
 * refused staff request; an Admin changes the learner's role and resets their progress.
 */
beforeAll(async () => {
  learner.password = password("sign-up");
  const signedUp = await request("/api/auth/sign-up/email", {
    method: "POST",
    json: { ...learner, name: `${learner.firstName} ${learner.lastName}` },
  });
  expect(signedUp.status).toBe(200);
  learnerId = await idOf(learner.email);

  expect((await signIn(learner.email, password("wrong-guess"))).status).toBe(401);
  expect((await signIn("nobody-at-all@unknown.example", password("unknown-account"))).status).toBe(401);
  // A name typed where the email belongs.
  expect((await signIn("alex-tan-no-email", password("no-email"))).status).toBe(400);
  let cookie = cookieOf(await signIn(learner.email, learner.password));

  for (const [chapterId, dayId, taskId] of [
    ["chapter-1", "day-1", "story:read-setting"],
    ["chapter-1", "day-1", "story:read-dialog"],
  ] as const) {
    const written = await request(`/api/progress/${chapterId}/${dayId}/${encodeURIComponent(taskId)}`, {
      method: "PUT",
      cookie,
      json: { status: "completed" },
    });
    expect(written.status).toBe(200);
  }
  // A learner asking for a staff API, and a request from another site.
  expect((await request("/api/users", { cookie })).status).toBe(403);
  expect(
    (
      await request("/api/progress/chapter-1/day-1/story%3Aread-setting", {
        method: "PUT",
        cookie,
        headers: { origin: "https://evil.example" },
        json: { status: "completed" },
      })
    ).status,
  ).toBe(403);

  const changedPassword = password("changed");
  const changed = await request("/api/auth/change-password", {
    method: "POST",
    cookie,
    json: { currentPassword: learner.password, newPassword: changedPassword },
  });
  expect(changed.status).toBe(200);
  learner.password = changedPassword;

  const asked = await request("/api/auth/request-password-reset", {
    method: "POST",
    json: { email: learner.email, redirectTo: "/reset-password" },
  });
  expect(asked.status).toBe(200);
  const mail = (await t.outbox()).filter((message) => message.to === learner.email).at(-1)!;
  const link = new URL(mail.link!);
  const redirect = await request(`${link.pathname}${link.search}`, { redirect: "manual" });
  resetToken = new URL(redirect.headers.get("location")!, ORIGIN).searchParams.get("token")!;
  expect(resetToken.length).toBeGreaterThanOrEqual(12);
  const resetPassword = password("reset");
  const reset = await request("/api/auth/reset-password", {
    method: "POST",
    json: { token: resetToken, newPassword: resetPassword },
  });
  expect(reset.status).toBe(200);
  learner.password = resetPassword;
  cookie = cookieOf(await signIn(learner.email, learner.password));

  const enabled = await request("/api/auth/two-factor/enable", {
    method: "POST",
    cookie,
    json: { password: learner.password },
  });
  expect(enabled.status).toBe(200);
  const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
  secret("TOTP secret", new URL(totpURI).searchParams.get("secret"));
  for (const code of backupCodes) secret("backup code", code);
  cookie = cookieOf(enabled) || cookie;
  const verified = await request("/api/auth/two-factor/verify-totp", {
    method: "POST",
    cookie,
    json: { code: totpCode(totpURI) },
  });
  expect(verified.status).toBe(200);

  const challenged = await signIn(learner.email, learner.password);
  expect(challenged.status).toBe(200);
  expect((await challenged.json()).twoFactorRedirect).toBe(true);
  const challenge = cookieOf(challenged);
  const wrongCode = String((Number(totpCode(totpURI)) + 1) % 1_000_000).padStart(6, "0");
  const refusedCode = await request("/api/auth/two-factor/verify-totp", {
    method: "POST",
    cookie: challenge,
    json: { code: wrongCode },
  });
  expect(refusedCode.status).toBe(401);
  const secondFactor = await request("/api/auth/two-factor/verify-totp", {
    method: "POST",
    cookie: challenge,
    json: { code: totpCode(totpURI) },
  });
  expect(secondFactor.status).toBe(200);
  secret("token in the two-factor answer", (await secondFactor.json()).token);

  admin.password = password("admin");
  await t.signUp(admin);
  adminId = await idOf(admin.email);
  await t.db.update(userTable).set({ role: "Admin" }).where(eq(userTable.id, adminId));
  const adminCookie = cookieOf(await signIn(admin.email, admin.password));
  const promoted = await request(`/api/users/${learnerId}/role`, {
    method: "PATCH",
    cookie: adminCookie,
    json: { role: "Tutor" },
  });
  expect(promoted.status).toBe(200);
  const cleared = await request(`/api/users/${learnerId}/progress`, { method: "DELETE", cookie: adminCookie });
  expect(await cleared.json()).toEqual({ deleted: 2 });
});

function logEntries(): LogEntry[] {
  return t.logLines.map((line) => JSON.parse(line) as LogEntry);
}

function audited(event: string): LogEntry[] {
  return logEntries().filter((entry) => entry.audit === event);
}

describe("the audit log", () => {
  it("records every sign-in success with who and from where, and the way they proved it", () => {
    const signIns = audited("sign_in");
    expect(signIns.filter((entry) => entry.userId === learnerId).map((entry) => entry.method)).toEqual([
      "password",
      "password",
      "totp",
    ]);
    expect(signIns.filter((entry) => entry.userId === adminId)).toHaveLength(1);
    for (const entry of signIns) {
      expect(entry).toMatchObject({ ip: CLIENT_IP, msg: "sign_in" });
      expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
    }
    expect(audited("sign_in_second_factor_required")).toEqual([
      expect.objectContaining({ userId: learnerId, ip: CLIENT_IP }),
    ]);
  });

  it("records every sign-in failure with the email's domain only", () => {
    const failures = audited("sign_in_failed");
    expect(failures).toEqual([
      expect.objectContaining({ emailDomain: "example.com", status: 401, ip: CLIENT_IP, method: "password" }),
      expect.objectContaining({ emailDomain: "unknown.example", status: 401, ip: CLIENT_IP, method: "password" }),
      expect.objectContaining({ status: 400, ip: CLIENT_IP, method: "password" }),
    ]);
    expect(failures[2]!.emailDomain).toBeUndefined();
    for (const entry of failures) {
      for (const name of [learner.email.split("@")[0]!, "nobody-at-all", "alex-tan-no-email"]) {
        expect(JSON.stringify(entry)).not.toContain(name);
      }
    }
    expect(audited("second_factor_failed")).toEqual([
      expect.objectContaining({ method: "totp", status: 401, ip: CLIENT_IP }),
    ]);
  });

  it("records a role change: who, whom, from and to", () => {
    expect(audited("role_change")).toEqual([
      expect.objectContaining({
        userId: adminId,
        targetUserId: learnerId,
        from: "Student",
        to: "Tutor",
        ip: CLIENT_IP,
      }),
    ]);
  });

  it("records a progress reset: who, whose, and how many records", () => {
    expect(audited("progress_reset")).toEqual([
      expect.objectContaining({ userId: adminId, targetUserId: learnerId, count: 2, ip: CLIENT_IP }),
    ]);
  });

  it("records every 403: who, what and from where", () => {
    expect(audited("forbidden")).toEqual([
      expect.objectContaining({ userId: learnerId, method: "GET", path: "/api/users", ip: CLIENT_IP }),
      expect.objectContaining({
        method: "PUT",
        path: "/api/progress/chapter-1/day-1/story%3Aread-setting",
        ip: CLIENT_IP,
      }),
    ]);
  });
});

describe("log secrecy", () => {
  it("writes no password, session token or second-factor secret in any log line", () => {
    // The sequence did log: a grep over nothing would prove nothing.
    expect(t.logLines.length).toBeGreaterThan(30);
    expect([...secrets.values()]).toEqual(
      expect.arrayContaining([
        "password (sign-up)",
        "password (wrong-guess)",
        "password (changed)",
        "password (reset)",
        "cookie better-auth.session_token (token)",
        "token in the sign-in answer",
        "TOTP secret",
      ]),
    );
    const found = [...secrets].flatMap(([value, label]) =>
      t.logLines.filter((line) => line.includes(value)).map((line) => `${label}: ${line}`),
    );
    expect(found).toEqual([]);
  });

  it("keeps the password-reset token out of the request log, which records its path redacted", () => {
    const withToken = logEntries().filter((entry) => JSON.stringify(entry).includes(resetToken));
    // Only the development outbox's line carries the emailed link; production does not log links.
    expect(withToken.map((entry) => entry.msg)).toEqual(["email written to the outbox"]);
    expect(logEntries()).toContainEqual(
      expect.objectContaining({ msg: "request", method: "GET", path: "/api/auth/reset-password/[redacted]" }),
    );
  });
});
