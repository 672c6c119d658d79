import { createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { parse } from "hono/utils/cookie";
import { describe, expect, it } from "vitest";
import { session as sessionTable, user as userTable } from "#server/db/schema";
import { createTestApp } from "#tests/test-app";
import { ANONYMOUS, ASK_BETTER_AUTH, createSessionReader } from "./session";

// The session middleware's fast path (src/server/auth/session.ts) against Better Auth's own
// getSession, cookie by cookie. Wherever the fast path decides alone, Better Auth must decide the
// same; an upgrade of better-auth that adds or moves a rule then fails here (decisions 022, 025).
const t = await createTestApp();
const readSession = createSessionReader(t.auth, t.db);
const { secret, authCookies } = await t.auth.$context;
const TOKEN_COOKIE = authCookies.sessionToken.name;
const DAY_MS = 24 * 60 * 60 * 1000;

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const signatureOf = (token: string, key = secret) => createHmac("sha256", key).update(token).digest("base64");
/** The cookie header a browser sends for a signed value, URI-encoded as Better Auth sets it. */
const cookieOf = (token: string, signature: string) => `${TOKEN_COOKIE}=${encodeURIComponent(`${token}.${signature}`)}`;

interface Session {
  token: string;
  signature: string;
  cookie: string;
  sessionId: string;
  userId: string;
}

async function signedIn(): Promise<Session> {
  const { user, cookie } = await t.signedInUser();
  const [row] = await t.db
    .select({ sessionId: sessionTable.id, token: sessionTable.token, userId: userTable.id })
    .from(sessionTable)
    .innerJoin(userTable, eq(userTable.id, sessionTable.userId))
    .where(eq(userTable.email, user.email));
  const signed = parse(cookie)[TOKEN_COOKIE]!;
  return { ...row!, signature: signed.slice(signed.lastIndexOf(".") + 1), cookie };
}

/**
 * A valid session of a new account whose cookie signature matches `wanted`: tokens are drawn until
 * one's signature does, and its row is written as Better Auth writes a new session's.
 */
async function signedInWithSignature(wanted: RegExp): Promise<Session> {
  const { userId } = await signedIn();
  let token = randomBytes(16).toString("hex");
  while (!wanted.test(signatureOf(token))) token = randomBytes(16).toString("hex");
  const [row] = await t.db
    .insert(sessionTable)
    .values({ id: randomBytes(16).toString("hex"), token, userId, expiresAt: new Date(Date.now() + 30 * DAY_MS) })
    .returning({ sessionId: sessionTable.id });
  const signature = signatureOf(token);
  return { token, signature, cookie: cookieOf(token, signature), sessionId: row!.sessionId, userId };
}

/** Who a verdict signs in: the user and session ids, or null for no one. */
type Who = { userId: string; sessionId: string } | null;

interface Case {
  name: string;
  /** What the fast path answers: it decides alone ("signed-in", "anonymous") or asks Better Auth. */
  fast: "signed-in" | "anonymous" | "ask-better-auth";
  /** The cookie header to judge, and who Better Auth is expected to sign in with it. */
  make: () => Promise<{ cookie: string; betterAuth: Who }>;
}

const whoOf = (session: Session): Who => ({ userId: session.userId, sessionId: session.sessionId });
const setExpiresAt = (session: Session, expiresAt: Date) =>
  t.db.update(sessionTable).set({ expiresAt }).where(eq(sessionTable.id, session.sessionId));
/** Flips the signature's first character: a signature of the right form that does not match. */
const flipFirst = (signature: string) => `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;

const CASES: Case[] = [
  {
    name: "a fresh session",
    fast: "signed-in",
    make: async () => {
      const session = await signedIn();
      return { cookie: session.cookie, betterAuth: whoOf(session) };
    },
  },
  {
    name: "a session renewed 23 hours ago, not yet due",
    fast: "signed-in",
    make: async () => {
      const session = await signedIn();
      await setExpiresAt(session, new Date(Date.now() + 30 * DAY_MS - 23 * 60 * 60 * 1000));
      return { cookie: session.cookie, betterAuth: whoOf(session) };
    },
  },
  {
    name: "a session due for its daily renewal",
    fast: "ask-better-auth",
    make: async () => {
      const session = await signedIn();
      await setExpiresAt(session, new Date(Date.now() + 30 * DAY_MS - 25 * 60 * 60 * 1000));
      return { cookie: session.cookie, betterAuth: whoOf(session) };
    },
  },
  {
    name: "an expired session",
    fast: "ask-better-auth",
    make: async () => {
      const session = await signedIn();
      await setExpiresAt(session, new Date(Date.now() - 1000));
      return { cookie: session.cookie, betterAuth: null };
    },
  },
  {
    name: "a revoked session (its row deleted)",
    fast: "ask-better-auth",
    make: async () => {
      const session = await signedIn();
      await t.db.delete(sessionTable).where(eq(sessionTable.id, session.sessionId));
      return { cookie: session.cookie, betterAuth: null };
    },
  },
  {
    // The foreign key deletes the sessions with the user: the fast path finds no row.
    name: "a session of a deleted user",
    fast: "ask-better-auth",
    make: async () => {
      const session = await signedIn();
      await t.db.delete(userTable).where(eq(userTable.id, session.userId));
      return { cookie: session.cookie, betterAuth: null };
    },
  },
  {
    name: "a session with Better Auth's session-data cookie beside it",
    fast: "ask-better-auth",
    make: async () => {
      const session = await signedIn();
      return { cookie: `${session.cookie}; ${authCookies.sessionData.name}=stale`, betterAuth: whoOf(session) };
    },
  },
  {
    name: "no session cookie",
    fast: "anonymous",
    make: async () => ({ cookie: "theme=dark", betterAuth: null }),
  },
  {
    name: "a wrong signature",
    fast: "anonymous",
    make: async () => {
      const session = await signedIn();
      return { cookie: cookieOf(session.token, flipFirst(session.signature)), betterAuth: null };
    },
  },
  {
    name: "the signature in base64url ('-' and '_' for '+' and '/')",
    fast: "anonymous",
    make: async () => {
      const session = await signedInWithSignature(/[+/]/);
      const base64url = session.signature.replaceAll("+", "-").replaceAll("/", "_");
      return { cookie: cookieOf(session.token, base64url), betterAuth: null };
    },
  },
  {
    name: "the signature with '==' padding",
    fast: "anonymous",
    make: async () => {
      const session = await signedIn();
      return { cookie: cookieOf(session.token, `${session.signature.slice(0, 42)}==`), betterAuth: null };
    },
  },
  {
    name: "the signature with '=' inside it",
    fast: "anonymous",
    make: async () => {
      const { token, signature } = await signedIn();
      return { cookie: cookieOf(token, `${signature.slice(0, 21)}=${signature.slice(21, 42)}=`), betterAuth: null };
    },
  },
  {
    name: "the signature without its padding",
    fast: "anonymous",
    make: async () => {
      const session = await signedIn();
      return { cookie: cookieOf(session.token, session.signature.slice(0, 43)), betterAuth: null };
    },
  },
  {
    // 43 characters carry 258 bits for 256: both decoders drop the last two, so this is the same signature.
    name: "the signature with its two unused bits set",
    fast: "signed-in",
    make: async () => {
      const session = await signedIn();
      const last = BASE64[BASE64.indexOf(session.signature[42]!) | 0b11]!;
      return {
        cookie: cookieOf(session.token, `${session.signature.slice(0, 42)}${last}=`),
        betterAuth: whoOf(session),
      };
    },
  },
  {
    name: "a signature made with another secret",
    fast: "anonymous",
    make: async () => {
      const session = await signedIn();
      const otherSecret = randomBytes(32).toString("base64");
      return { cookie: cookieOf(session.token, signatureOf(session.token, otherSecret)), betterAuth: null };
    },
  },
  {
    name: "another session's token with this session's signature",
    fast: "anonymous",
    make: async () => {
      const [mine, theirs] = [await signedIn(), await signedIn()];
      return { cookie: cookieOf(theirs.token, mine.signature), betterAuth: null };
    },
  },
];

describe("the fast session check and Better Auth's getSession", () => {
  it.each(CASES.map((testCase) => [testCase.name, testCase] as const))("%s", async (_name, testCase) => {
    const { cookie, betterAuth } = await testCase.make();
    // The fast verdict first: getSession deletes an expired session and renews one that is due.
    const fast = await readSession(parse(cookie));
    const answer = await t.auth.api.getSession({ headers: new Headers({ cookie }) });
    const judgedByBetterAuth: Who = answer && { userId: answer.user.id, sessionId: answer.session.id };

    // Where the fast path decides alone, Better Auth decides the same.
    if (fast === ANONYMOUS)
      expect(judgedByBetterAuth, "Better Auth signs in a cookie the fast path refuses").toBeNull();
    else if (fast !== ASK_BETTER_AUTH) {
      expect(judgedByBetterAuth, "Better Auth judges otherwise").toEqual({
        userId: fast.user.id,
        sessionId: fast.sessionId,
      });
      expect({ email: answer!.user.email, role: (answer!.user as { role?: unknown }).role }).toEqual({
        email: fast.user.email,
        role: fast.user.role,
      });
    }
    expect(fast === ANONYMOUS || fast === ASK_BETTER_AUTH ? fast : "signed-in").toBe(testCase.fast);
    expect(judgedByBetterAuth).toEqual(betterAuth);
  });

  it("has cases the fast path signs in alone, refuses alone, and leaves to Better Auth", () => {
    expect(new Set(CASES.map((testCase) => testCase.fast))).toEqual(
      new Set(["signed-in", "anonymous", "ask-better-auth"]),
    );
  });
});
