import { asc, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "../src/course/roles";
import { contactMessage, session, taskProgress, tutorFeedback, user } from "../src/server/db/schema";
import { ACTORS, type Actor, AUTHORIZATION_TABLE, type Outcome, pathMatchesRoute } from "./authorization-table";
import { createTestApp } from "./test-app";

const t = await createTestApp();

interface Account {
  id: string;
  cookie: string;
  role: Role;
}

/** The accounts behind the actors; the expired and revoked sessions belong to Admins of their own. */
const accounts = {} as Record<Exclude<Actor, "anonymous">, Account>;
let expiredSessionRow: typeof session.$inferSelect;

async function account(role: Role): Promise<Account> {
  const { user: details, cookie } = await t.signedInUser();
  const [row] = await t.db.update(user).set({ role }).where(eq(user.email, details.email)).returning({ id: user.id });
  return { id: row!.id, cookie, role };
}

const profileStatus = async (cookie: string) => (await t.request("/api/profile", { cookie })).status;

beforeAll(async () => {
  accounts.learner = await account("Student");
  accounts.otherLearner = await account("Student");
  accounts.tutor = await account("Tutor");
  accounts.admin = await account("Admin");

  // Each stale cookie is shown to work first, so its 401s later come from the expiry or the sign-out.
  const expired = await account("Admin");
  expect(await profileStatus(expired.cookie)).toBe(200);
  const [row] = await t.db
    .update(session)
    .set({ expiresAt: sql`now() - interval '1 minute'` })
    .where(eq(session.userId, expired.id))
    .returning();
  expiredSessionRow = row!;
  accounts.expiredSession = expired;

  const revoked = await account("Admin");
  expect(await profileStatus(revoked.cookie)).toBe(200);
  const signOut = await t.request("/api/auth/sign-out", { method: "POST", cookie: revoked.cookie, json: {} });
  expect(signOut.status).toBe(200);
  expect(await t.db.select().from(session).where(eq(session.userId, revoked.id))).toEqual([]);
  accounts.revokedSession = revoked;
});

/**
 * The same data before every cell: the actors' roles, some progress for both learners, feedback the
 * first learner received and one contact message, so that a wrongly allowed write, change or delete
 * would show in the snapshot. The expired session is put back too (Better Auth deletes an expired
 * session when it meets one).
 */
async function resetWorld() {
  for (const { id, role } of Object.values(accounts)) await t.db.update(user).set({ role }).where(eq(user.id, id));
  await t.db.delete(taskProgress);
  await t.db.insert(taskProgress).values([
    {
      userId: accounts.learner.id,
      chapterId: "chapter-1",
      sectionId: "day-1",
      taskId: "story:read-setting",
      status: "completed",
    },
    {
      userId: accounts.learner.id,
      chapterId: "chapter-1",
      sectionId: "day-1",
      taskId: "story:read-dialog",
      status: "in-progress",
    },
    {
      userId: accounts.otherLearner.id,
      chapterId: "chapter-1",
      sectionId: "day-1",
      taskId: "story:read-setting",
      status: "in-progress",
    },
  ]);
  await t.db.delete(tutorFeedback);
  await t.db.insert(tutorFeedback).values({
    studentId: accounts.learner.id,
    tutorId: accounts.tutor.id,
    chapterId: "chapter-1",
    dayId: "day-1",
    feedback: "Sebutan anda bagus.",
  });
  await t.db.delete(contactMessage);
  await t.db.insert(contactMessage).values({ fullName: "Ahmad", email: "ahmad@example.com", message: "Salam!" });
  await t.db
    .insert(session)
    .values(expiredSessionRow)
    .onConflictDoUpdate({ target: session.id, set: { expiresAt: expiredSessionRow.expiresAt } });
}

/** Everything an API call could write: accounts (roles, profiles), progress, feedback, contact messages. */
async function snapshot() {
  const [users, progress, feedback, messages] = await Promise.all([
    t.db
      .select({
        id: user.id,
        role: user.role,
        firstName: user.firstName,
        lastName: user.lastName,
        nickname: user.nickname,
        avatarPath: user.avatarPath,
        updatedAt: sql<string>`${user.updatedAt}::text`,
      })
      .from(user)
      .orderBy(asc(user.id)),
    t.db
      .select({
        userId: taskProgress.userId,
        chapterId: taskProgress.chapterId,
        dayId: taskProgress.sectionId,
        taskId: taskProgress.taskId,
        status: taskProgress.status,
        updatedAt: sql<string>`${taskProgress.updatedAt}::text`,
      })
      .from(taskProgress)
      .orderBy(asc(taskProgress.userId), asc(taskProgress.sectionId), asc(taskProgress.taskId)),
    t.db.select().from(tutorFeedback).orderBy(asc(tutorFeedback.id)),
    t.db.select().from(contactMessage).orderBy(asc(contactMessage.id)),
  ]);
  return { users, progress, feedback, messages };
}

const statusOf = (outcome: Outcome) => (outcome === "allow" ? "2xx" : outcome);
const statusClass = (status: number) => (status >= 200 && status < 300 ? "2xx" : String(status));

let serial = 0;

describe("the authorization table", () => {
  it("lists every API route the app serves, and only those", () => {
    const served = new Set(
      t.app.routes
        .filter(
          (route) => route.method !== "ALL" && route.path.startsWith("/api/") && !route.path.startsWith("/api/auth/"),
        )
        .map((route) => `${route.method} ${route.path}`),
    );
    const listed = AUTHORIZATION_TABLE.map((rule) => `${rule.method} ${rule.route}`);
    expect(
      [...served].filter((route) => !listed.includes(route)),
      "API routes missing from tests/authorization-table.ts",
    ).toEqual([]);
    expect(
      listed.filter((route) => !served.has(route)),
      "rows of tests/authorization-table.ts the app does not serve",
    ).toEqual([]);
    expect(new Set(listed).size, "rows listed twice").toBe(listed.length);
  });

  it.each(AUTHORIZATION_TABLE.map((rule) => [`${rule.method} ${rule.route}`, rule] as const))(
    "%s: its request addresses its route and some actor is allowed it",
    async (_name, rule) => {
      const built = await rule.request({ learnerId: "some-user-id", serial: 0 });
      expect(pathMatchesRoute(built.path, rule.route), built.path).toBe(true);
      expect(Object.values(rule.expected)).toContain("allow");
    },
  );
});

describe.each(AUTHORIZATION_TABLE.map((rule) => [`${rule.method} ${rule.route}`, rule] as const))(
  "%s",
  (_name, rule) => {
    it.each(ACTORS.map((actor) => [actor, rule.expected[actor]] as const))("%s: %s", async (actor, outcome) => {
      await resetWorld();
      const before = await snapshot();
      serial += 1;
      const { path, json, body, clientIp } = await rule.request({ learnerId: accounts.learner.id, serial });
      const response = await t.request(path, {
        method: rule.method,
        cookie: actor === "anonymous" ? undefined : accounts[actor].cookie,
        json,
        body,
        clientIp,
      });
      expect(statusClass(response.status), await response.clone().text()).toBe(statusOf(outcome));
      if (outcome !== "allow") {
        const { error } = await response.json();
        expect(error.code).toBe(outcome === "401" ? "UNAUTHORIZED" : "FORBIDDEN");
        expect(await snapshot()).toEqual(before);
      }
    });
  },
);
