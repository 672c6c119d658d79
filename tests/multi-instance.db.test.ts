import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startServer } from "#scripts/bench-server";
import { AUTH_RATE_LIMITS } from "#server/auth/auth";
import { connectDatabase } from "#server/db/client";
import { mailOutbox, user as userTable } from "#server/db/schema";
import { LIMITS } from "#server/http/request-limit";
import { createLogger } from "#server/logger";
import { newUser, type TestUser } from "./test-app";

/**
 * Two app processes on one PostgreSQL (this file's own copy of the template database: the embedded
 * server under `npm test`, the server on 127.0.0.1:5432 in CI's second pass), with one AUTH_SECRET and
 * a DATA_DIR each, as an operator runs them behind a load balancer (README, "Several instances").
 * Whatever one instance does, the other sees on its next request.
 */
const databaseUrl = process.env.TEST_DATABASE_URL!;
const secret = randomBytes(32).toString("base64url");
const database = connectDatabase(databaseUrl, createLogger("silent"), { max: 2 });
/** The one address users reach, whichever instance the load balancer picks. */
const PUBLIC_URL = "http://jalan.test";

interface Instance {
  name: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
}

async function start(name: string, port?: number, dataDir?: string): Promise<Instance> {
  const dir = dataDir ?? (await mkdtemp(path.join(os.tmpdir(), `jalan-instance-${name}-`)));
  const chosenPort = port ?? (await freePort());
  const { child } = await startServer(dir, chosenPort, "production", {
    env: {
      DATABASE_URL: databaseUrl,
      AUTH_SECRET: secret,
      PUBLIC_URL,
      // Behind the load balancer: the client's address is the one it forwards.
      TRUST_PROXY: "true",
      RATE_LIMIT: "true",
      ADMIN_EMAILS: undefined,
      SMTP_URL: undefined,
    },
    timeoutMs: 60_000,
  });
  return { name, port: chosenPort, dataDir: dir, child };
}

function kill(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => instance.child.once("exit", () => resolve()));
  instance.child.kill("SIGKILL");
  return exited;
}

let a: Instance;
let b: Instance;
beforeAll(async () => {
  [a, b] = await Promise.all([start("a"), start("b")]);
}, 120_000);
afterAll(async () => {
  await Promise.all([a, b].map(kill));
  await Promise.all([a, b].map((instance) => rm(instance.dataDir, { recursive: true, force: true })));
  await database.close();
});

let clientCounter = 0;
/** A client address of its own (a documentation range), so each test's counts are its own. */
function newClient(): string {
  clientCounter += 1;
  return `198.51.100.${clientCounter}`;
}

/** A request to one instance, as the load balancer passes it on. */
function call(
  instance: Instance,
  pathname: string,
  init: { method?: string; cookie?: string; json?: unknown; body?: BodyInit; client?: string } = {},
) {
  const headers = new Headers({ origin: PUBLIC_URL, "x-forwarded-for": init.client ?? "198.51.100.250" });
  if (init.cookie) headers.set("cookie", init.cookie);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return fetch(`http://127.0.0.1:${instance.port}${pathname}`, { method: init.method ?? "GET", headers, body });
}

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");

async function signUp(instance: Instance, user: TestUser = newUser()) {
  const client = newClient();
  const response = await call(instance, "/api/auth/sign-up/email", {
    method: "POST",
    client,
    json: { ...user, name: `${user.firstName} ${user.lastName}` },
  });
  expect(response.status).toBe(200);
  return user;
}

async function signIn(instance: Instance, user: TestUser): Promise<string> {
  const response = await call(instance, "/api/auth/sign-in/email", {
    method: "POST",
    client: newClient(),
    json: { email: user.email, password: user.password },
  });
  expect(response.status).toBe(200);
  return cookieOf(response);
}

async function profile(instance: Instance, cookie: string) {
  const response = await call(instance, "/api/profile", { cookie });
  return { status: response.status, profile: response.ok ? (await response.json()).profile : null };
}

describe("two instances on one PostgreSQL", () => {
  it("share sessions: one made on A works on B, and a sign-out on B ends it on A", async () => {
    const user = await signUp(a);
    const cookie = await signIn(a, user);
    expect(await profile(b, cookie)).toMatchObject({ status: 200, profile: { email: user.email } });

    const signOut = await call(b, "/api/auth/sign-out", { method: "POST", cookie, json: {} });
    expect(signOut.status).toBe(200);
    expect((await profile(a, cookie)).status).toBe(401);
  });

  it("apply a role change made on A to B's next request", async () => {
    const admin = await signUp(a);
    await database.db.update(userTable).set({ role: "Admin" }).where(eq(userTable.email, admin.email));
    const adminCookie = await signIn(a, admin);
    const learner = await signUp(b);
    const learnerCookie = await signIn(b, learner);
    const learnerId = (await profile(b, learnerCookie)).profile.id;
    expect((await call(b, "/api/users", { cookie: learnerCookie })).status).toBe(403);

    const change = await call(a, `/api/users/${learnerId}/role`, {
      method: "PATCH",
      cookie: adminCookie,
      json: { role: "Tutor" },
    });
    expect(change.status).toBe(200);
    expect((await call(b, "/api/users", { cookie: learnerCookie })).status).toBe(200);
    expect((await profile(b, learnerCookie)).profile.role).toBe("Tutor");
  });

  it("serve on B an avatar uploaded on A", async () => {
    const user = await signUp(a);
    const cookie = await signIn(a, user);
    const image = await sharp({ create: { width: 320, height: 240, channels: 3, background: "#c8502a" } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set("avatar", new File([new Uint8Array(image)], "me.png", { type: "image/png" }));
    const upload = await call(a, "/api/profile/avatar", { method: "PUT", cookie, body: form });
    expect(upload.status).toBe(200);
    const { avatar } = (await upload.json()).profile as { avatar: { small: string; large: string } };

    for (const url of [avatar.small, avatar.large]) {
      const fromA = await call(a, url);
      const fromB = await call(b, url);
      expect(fromB.status).toBe(200);
      expect(fromB.headers.get("content-type")).toBe("image/webp");
      expect(Buffer.from(await fromB.arrayBuffer())).toEqual(Buffer.from(await fromA.arrayBuffer()));
    }
    // Nothing of it is on either instance's disk.
    for (const instance of [a, b]) {
      expect(await readdir(path.join(instance.dataDir, "uploads")).catch(() => [])).toEqual([]);
    }
  });

  it("keep mail in the shared outbox, whichever instance wrote it", async () => {
    const user = await signUp(b);
    const rows = await database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, user.email));
    expect(rows.map((row) => row.subject)).toEqual(["Confirm your email for Jalan"]);
  });

  it("count wrong sign-ins spread over A and B as one, and a restarted instance keeps the count", async () => {
    const client = newClient();
    const guess = (instance: Instance) =>
      call(instance, "/api/auth/sign-in/email", {
        method: "POST",
        client,
        json: { email: newUser().email, password: "wrong-guess" },
      });
    for (let attempt = 1; attempt <= AUTH_RATE_LIMITS["/sign-in/email"].max; attempt += 1) {
      expect((await guess(attempt % 2 === 0 ? a : b)).status, `attempt ${attempt}`).toBe(401);
    }
    expect((await guess(a)).status).toBe(429);
    expect((await guess(b)).status).toBe(429);

    await kill(a);
    a = await start("a", a.port, a.dataDir);
    expect((await guess(a)).status).toBe(429);
  });

  it("count wrong passwords for one account over A and B as one", async () => {
    const victim = await signUp(a);
    const guess = (instance: Instance, password: string) =>
      call(instance, "/api/auth/sign-in/email", {
        method: "POST",
        client: newClient(),
        json: { email: victim.email, password },
      });
    for (let attempt = 1; attempt <= LIMITS.failedSignInsPerAccount.max; attempt += 1) {
      expect((await guess(attempt % 2 === 0 ? a : b, `guess-${attempt}`)).status, `attempt ${attempt}`).toBe(401);
    }
    expect((await guess(b, victim.password)).status).toBe(429);
  });
});
