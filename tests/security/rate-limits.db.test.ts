import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { AUTH_RATE_LIMITS, createAuth } from "#server/auth/auth";
import { rateLimit, user as userTable } from "#server/db/schema";
import { CLIENT_IP_HEADER } from "#server/http/client-ip";
import { LIMITS } from "#server/http/request-limit";
import { CONTACT_MESSAGES_PER_HOUR } from "#server/modules/contact/contact.service";
import { createTestApp, newUser, ORIGIN } from "#tests/test-app";

// RATE_LIMIT on, as in production; TRUST_PROXY off (the default): X-Forwarded-For is not believed.
const t = await createTestApp({ RATE_LIMIT: "true" });
// The same app and accounts, configured to sit behind one trusted reverse proxy (TRUST_PROXY=true).
const behindProxy = t.appWith({ trustProxy: true });

const member = await t.signUp();

let addressCounter = 0;
/** A client address no other request in this file used (documentation ranges, never contacted). */
function newAddress(): string {
  addressCounter += 1;
  return `203.0.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

interface Target {
  name: string;
  path: string;
  /** Requests one client may make in the window. */
  max: number;
  /** The answer to a request within the limit. */
  allowed: number;
  body: () => unknown;
}

const targets: Target[] = [
  {
    name: "sign-in",
    path: "/api/auth/sign-in/email",
    max: AUTH_RATE_LIMITS["/sign-in/email"].max,
    // Password guessing: every attempt within the limit is a wrong password, each for another
    // address, so the per-account limit (tested below) stays out of the way.
    allowed: 401,
    body: () => ({ email: newUser().email, password: "wrong-guess" }),
  },
  {
    name: "sign-up",
    path: "/api/auth/sign-up/email",
    max: AUTH_RATE_LIMITS["/sign-up/email"].max,
    allowed: 200,
    body: () => {
      const user = newUser();
      return { ...user, name: `${user.firstName} ${user.lastName}` };
    },
  },
  {
    name: "password reset",
    path: "/api/auth/request-password-reset",
    max: AUTH_RATE_LIMITS["/request-password-reset"].max,
    allowed: 200,
    body: () => ({ email: member.email, redirectTo: "/reset-password" }),
  },
  {
    name: "contact form",
    path: "/api/contact",
    max: CONTACT_MESSAGES_PER_HOUR,
    allowed: 201,
    body: () => ({ fullName: "Aisyah Rahman", email: "aisyah@example.com", message: "Ada kelas petang?" }),
  },
];

/**
 * A POST as it reaches the server: `socket` is the address of the connection (a browser's, or the
 * proxy's), which in-process requests pass as the Node request the server would have seen.
 */
function post(
  target: Target,
  {
    socket,
    headers = {},
    app = t.app,
    body = target.body(),
  }: {
    socket: string;
    headers?: Record<string, string>;
    app?: typeof t.app;
    body?: unknown;
  },
) {
  return app.request(
    target.path,
    {
      method: "POST",
      headers: { "content-type": "application/json", origin: ORIGIN, ...headers },
      body: JSON.stringify(body),
    },
    { incoming: { socket: { remoteAddress: socket } } },
  );
}

function auditLines(event: string) {
  return t.logLines.map((line) => JSON.parse(line)).filter((entry) => entry.audit === event);
}

describe.each(targets)("the $name limit", (target) => {
  it("serves one client up to the limit, answers 429 past it, and still serves another client", async () => {
    const socket = newAddress();
    for (let i = 1; i <= target.max; i += 1) {
      expect((await post(target, { socket })).status, `request ${i}`).toBe(target.allowed);
    }
    const refused = await post(target, { socket });
    expect(refused.status).toBe(429);
    expect(auditLines("rate_limited")).toContainEqual(
      expect.objectContaining({ path: target.path, method: "POST", ip: socket }),
    );
    expect((await post(target, { socket: newAddress() })).status).toBe(target.allowed);
  });

  it("counts a client whose X-Forwarded-For and x-jalan-client-ip change on every request as one client", async () => {
    const socket = newAddress();
    const forged = () => ({ "x-forwarded-for": newAddress(), [CLIENT_IP_HEADER]: newAddress() });
    for (let i = 1; i <= target.max; i += 1) {
      expect((await post(target, { socket, headers: forged() })).status, `request ${i}`).toBe(target.allowed);
    }
    expect((await post(target, { socket, headers: forged() })).status).toBe(429);
  });

  it("behind a trusted proxy, counts each forwarded client apart, and forged entries before the proxy's gain nothing", async () => {
    const proxy = newAddress();
    const client = newAddress();
    // The proxy appends the address it saw; whatever the client wrote comes before it.
    const via = (forgedByClient: string) => ({
      "x-forwarded-for": `${forgedByClient}, ${client}`,
      [CLIENT_IP_HEADER]: newAddress(),
    });
    for (let i = 1; i <= target.max; i += 1) {
      const response = await post(target, { app: behindProxy, socket: proxy, headers: via(newAddress()) });
      expect(response.status, `request ${i}`).toBe(target.allowed);
    }
    expect((await post(target, { app: behindProxy, socket: proxy, headers: via(newAddress()) })).status).toBe(429);
    // Another visitor through the same proxy has a count of their own.
    const other = { "x-forwarded-for": newAddress() };
    expect((await post(target, { app: behindProxy, socket: proxy, headers: other })).status).toBe(target.allowed);
  });
});

describe("rate limits", () => {
  it("create no account for a sign-up refused with 429", async () => {
    const signUp = targets[1]!;
    const socket = newAddress();
    for (let i = 0; i < signUp.max; i += 1) expect((await post(signUp, { socket })).status).toBe(200);
    const body = signUp.body() as { email: string };
    expect((await post(signUp, { socket, body })).status).toBe(429);
    expect(await t.db.select().from(userTable).where(eq(userTable.email, body.email))).toEqual([]);
  });

  it("stop a right password too, once the guesses used up the limit", async () => {
    const socket = newAddress();
    const signIn = targets[0]!;
    for (let i = 0; i < signIn.max; i += 1) await post(signIn, { socket });
    const right = await post(signIn, { socket, body: { email: member.email, password: member.password } });
    expect(right.status).toBe(429);
    expect(right.headers.getSetCookie()).toEqual([]);
  });

  it("are off when RATE_LIMIT is off, the default outside production", async () => {
    const unlimited = await createTestApp();
    expect(unlimited.env.RATE_LIMIT).toBe(false);
    const socket = newAddress();
    const signIn = targets[0]!;
    for (let i = 0; i <= signIn.max; i += 1) {
      expect((await post(signIn, { app: unlimited.app, socket })).status).toBe(401);
    }
  });
});

describe("the per-account limit on wrong passwords", () => {
  const signIn = targets[0]!;
  const perAccount = LIMITS.failedSignInsPerAccount.max;

  it("stops guesses at one account from many addresses, the right password too, and says so", async () => {
    const victim = await t.signUp();
    for (let i = 1; i <= perAccount; i += 1) {
      const guess = await post(signIn, { socket: newAddress(), body: { email: victim.email, password: `guess-${i}` } });
      expect(guess.status, `guess ${i}`).toBe(401);
    }
    const right = await post(signIn, {
      socket: newAddress(),
      body: { email: victim.email, password: victim.password },
    });
    expect(right.status).toBe(429);
    expect(right.headers.getSetCookie()).toEqual([]);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await right.json()).message).toMatch(
      /^Too many wrong passwords for this account\. Please try again in 15 minutes\.$/,
    );
    // Another account is not held up by it.
    const other = await t.signUp();
    expect((await post(signIn, { socket: newAddress(), body: other })).status).toBe(200);
  });

  it("answers an address without an account exactly as one with an account", async () => {
    const nobody = newUser().email;
    for (let i = 1; i <= perAccount; i += 1) {
      expect((await post(signIn, { socket: newAddress(), body: { email: nobody, password: "x-guess" } })).status).toBe(
        401,
      );
    }
    expect((await post(signIn, { socket: newAddress(), body: { email: nobody, password: "x-guess" } })).status).toBe(
      429,
    );
  });

  it("forgets the wrong passwords once the owner signs in", async () => {
    const owner = await t.signUp();
    const wrong = () => post(signIn, { socket: newAddress(), body: { email: owner.email, password: "typo-typo" } });
    for (let i = 1; i < perAccount; i += 1) expect((await wrong()).status).toBe(401);
    expect((await post(signIn, { socket: newAddress(), body: owner })).status).toBe(200);
    for (let i = 1; i <= perAccount; i += 1) expect((await wrong()).status, `after sign-in, guess ${i}`).toBe(401);
  });
});

describe("rate-limit counts", () => {
  it("live in PostgreSQL: an instance started later on the same database carries on the count", async () => {
    const socket = newAddress();
    for (let i = 1; i <= signInMax(); i += 1) expect((await post(targets[0]!, { socket })).status).toBe(401);
    // Better Auth keys its count on the address and the path (its memory store would hold it in
    // this process, shared by every instance made here, so the table is checked as well).
    const [row] = await t.db
      .select()
      .from(rateLimit)
      .where(like(rateLimit.key, `${socket}%/sign-in/email`));
    expect(row?.count).toBe(signInMax());
    // A second instance (or this one after a restart): its own Better Auth, nothing shared in memory.
    const restarted = t.appWith({ auth: createAuth({ db: t.db, env: t.env, mailer: t.mailer, logger: t.logger }) });
    expect((await post(targets[0]!, { app: restarted, socket })).status).toBe(429);
  });
});

function signInMax() {
  return AUTH_RATE_LIMITS["/sign-in/email"].max;
}
