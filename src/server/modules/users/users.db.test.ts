import { randomBytes } from "node:crypto";
import { and, count, eq, inArray, notInArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "#course/roles";
import { user as userTable } from "#server/db/schema";
import { HttpError } from "#server/http/errors";
import { createTestApp } from "#tests/test-app";
import { createUsersService } from "./users.service";

const t = await createTestApp();

async function signedInAs(role: Role, overrides: { firstName?: string; lastName?: string; email?: string } = {}) {
  const session = await t.signedInUser(overrides);
  await t.db.update(userTable).set({ role }).where(eq(userTable.email, session.user.email));
  const [row] = await t.db.select().from(userTable).where(eq(userTable.email, session.user.email));
  return { ...session, id: row!.id, email: row!.email };
}

type Session = Awaited<ReturnType<typeof signedInAs>>;

const listUsers = (cookie: string | undefined, query = "") => t.request(`/api/users${query}`, { cookie });

function changeRole(cookie: string | undefined, userId: string, body: unknown) {
  return t.request(`/api/users/${encodeURIComponent(userId)}/role`, { method: "PATCH", cookie, json: body });
}

async function roleOf(userId: string) {
  const [row] = await t.db
    .select({ role: userTable.role, updatedAt: sql<string>`${userTable.updatedAt}::text` })
    .from(userTable)
    .where(eq(userTable.id, userId));
  return row!;
}

async function adminCount() {
  const [row] = await t.db.select({ n: count() }).from(userTable).where(eq(userTable.role, "Admin"));
  return row!.n;
}

/** Leaves exactly these accounts as Admins, every other Admin of this file's database demoted. */
async function onlyAdmins(...ids: string[]) {
  await t.db
    .update(userTable)
    .set({ role: "Student" })
    .where(and(eq(userTable.role, "Admin"), notInArray(userTable.id, ids)));
  await t.db.update(userTable).set({ role: "Admin" }).where(inArray(userTable.id, ids));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let admin: Session;
let tutor: Session;
let learner: Session;

beforeAll(async () => {
  admin = await signedInAs("Admin");
  tutor = await signedInAs("Tutor");
  learner = await signedInAs("Student");
});

describe("GET /api/users", () => {
  /** A word no other account of this file has, so a search finds only the accounts made here. */
  const tag = `zq${randomBytes(3).toString("hex")}`;
  let people: Session[];

  beforeAll(async () => {
    people = [
      await signedInAs("Student", { firstName: `Bella${tag}`, lastName: "Yusof", email: `b.${tag}@example.com` }),
      await signedInAs("Tutor", { firstName: `Aisyah${tag}`, lastName: "Rahman", email: `a2.${tag}@example.com` }),
      await signedInAs("Student", { firstName: `aisyah${tag}`, lastName: "Lim", email: `a1.${tag}@example.com` }),
      await signedInAs("Admin", { firstName: `Aisyah${tag}`, lastName: "Rahman", email: `a0.${tag}@example.com` }),
      await signedInAs("Student", { firstName: "Chen", lastName: `Wei${tag}`, email: `c.${tag}@example.com` }),
    ];
    await t.db
      .update(userTable)
      .set({ nickname: `Kak ${tag}` })
      .where(eq(userTable.id, people[0]!.id));
  });

  it("needs a session, and a staff role", async () => {
    expect((await listUsers(undefined)).status).toBe(401);
    const refused = await listUsers(learner.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: { code: "FORBIDDEN", message: "You do not have permission to do that." },
    });
  });

  it.each([
    ["a Tutor, who sees the Students only", () => tutor, 3],
    ["an Admin, who sees everyone", () => admin, 5],
  ])(
    "lists the accounts for %s: id, names, nickname, email and role only, never cached",
    async (_label, who, total) => {
      const response = await listUsers(who().cookie, `?search=${tag}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      const body = await response.json();
      expect(body).toMatchObject({ total, page: 1, perPage: 20 });
      const bella = body.users.find((row: { id: string }) => row.id === people[0]!.id);
      expect(bella).toEqual({
        id: people[0]!.id,
        firstName: `Bella${tag}`,
        lastName: "Yusof",
        nickname: `Kak ${tag}`,
        email: `b.${tag}@example.com`,
        role: "Student",
      });
    },
  );

  it("lists a Tutor no member of staff, whatever the search: a Tutor acts on Students only", async () => {
    for (const search of [tag, `Aisyah${tag} Rahman`, `a0.${tag}@`]) {
      const body = await (await listUsers(tutor.cookie, `?search=${encodeURIComponent(search)}`)).json();
      expect(body.users.map((row: { role: string }) => row.role)).toEqual(body.users.map(() => "Student"));
      expect(body.users.map((row: { email: string }) => row.email)).not.toContain(`a0.${tag}@example.com`);
      expect(body.total).toBe(body.users.length);
    }
  });

  it("orders by first name, last name and email, ignoring case", async () => {
    const body = await (await listUsers(admin.cookie, `?search=${tag}`)).json();
    expect(body.users.map((row: { email: string }) => row.email)).toEqual([
      `a1.${tag}@example.com`,
      `a0.${tag}@example.com`,
      `a2.${tag}@example.com`,
      `b.${tag}@example.com`,
      `c.${tag}@example.com`,
    ]);
  });

  it.each([
    ["a first name, in any case", `BELLA${tag}`, ["b"]],
    ["a last name", `wei${tag}`, ["c"]],
    ["a nickname", `kak ${tag}`, ["b"]],
    ["part of an email", `a0.${tag}@`, ["a0"]],
    ["a first and last name together", `Aisyah${tag} Rahman`, ["a0", "a2"]],
    ["a search with spaces around it", `  wei${tag}  `, ["c"]],
  ])("finds %s", async (_label, search, expected) => {
    const body = await (await listUsers(admin.cookie, `?search=${encodeURIComponent(search)}`)).json();
    expect(body.users.map((row: { email: string }) => row.email.split(".")[0])).toEqual(expected);
  });

  it("treats %, _ and \\ in a search as themselves, not as wildcards", async () => {
    const mark = `zx${randomBytes(3).toString("hex")}`;
    const percent = await signedInAs("Student", { firstName: "Seratus", lastName: `100%${mark}` });
    const underscore = await signedInAs("Student", { firstName: "Garis", lastName: `a_b${mark}` });
    const backslash = await signedInAs("Student", { firstName: "Miring", lastName: `x\\y${mark}` });
    const search = async (text: string) =>
      (await (await listUsers(admin.cookie, `?search=${encodeURIComponent(text)}`)).json()).users.map(
        (row: { id: string }) => row.id,
      );
    expect(await search("%")).toEqual([percent.id]);
    expect(await search(`0%${mark}`)).toEqual([percent.id]);
    expect(await search("_")).toEqual([underscore.id]);
    expect(await search(`a_b${mark}`)).toEqual([underscore.id]);
    expect(await search(`x\\y`)).toEqual([backslash.id]);
    expect(await search(`a%b${mark}`)).toEqual([]);
    expect(await search(`x_y${mark}`)).toEqual([]);
  });

  it("pages through the matches, with the total", async () => {
    const first = await (await listUsers(admin.cookie, `?search=${tag}&page=1&perPage=2`)).json();
    expect(first).toMatchObject({ total: 5, page: 1, perPage: 2 });
    expect(first.users.map((row: { email: string }) => row.email)).toEqual([
      `a1.${tag}@example.com`,
      `a0.${tag}@example.com`,
    ]);
    const third = await (await listUsers(admin.cookie, `?search=${tag}&page=3&perPage=2`)).json();
    expect(third.users.map((row: { email: string }) => row.email)).toEqual([`c.${tag}@example.com`]);
    const beyond = await (await listUsers(admin.cookie, `?search=${tag}&page=4&perPage=2`)).json();
    expect(beyond).toEqual({ users: [], total: 5, page: 4, perPage: 2 });
  });

  it("lists everyone to an Admin without a search (an empty one included)", async () => {
    const [all] = await t.db.select({ n: count() }).from(userTable);
    for (const query of ["", "?search=", "?search=%20%20"]) {
      const body = await (await listUsers(admin.cookie, query)).json();
      expect(body.total).toBe(all!.n);
      expect(body.users).toHaveLength(Math.min(all!.n, 20));
    }
  });

  it.each([
    ["page=0", "page", "page must be at least 1."],
    ["page=abc", "page", "page must be a whole number from 1 to 1000000."],
    ["page=1.5", "page", "page must be a whole number from 1 to 1000000."],
    ["perPage=0", "perPage", "perPage must be at least 1."],
    ["perPage=101", "perPage", "perPage must be at most 100."],
    [`search=${"a".repeat(101)}`, "search", "search must be at most 100 characters."],
  ])("refuses %s with a 400 naming the parameter", async (query, path, message) => {
    const response = await listUsers(tutor.cookie, `?${query}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: { code: "BAD_REQUEST", message: "The query is not valid.", issues: [{ path, message }] },
    });
  });

  it("accepts a search of exactly 100 characters, counted after trimming", async () => {
    const response = await listUsers(tutor.cookie, `?search=${encodeURIComponent(` ${"a".repeat(100)} `)}`);
    expect(response.status).toBe(200);
  });
});

describe("PATCH /api/users/:userId/role", () => {
  it("lets an Admin make a learner a Tutor, which applies on the learner's very next request", async () => {
    const someone = await signedInAs("Student");
    expect((await listUsers(someone.cookie)).status).toBe(403);

    const promoted = await changeRole(admin.cookie, someone.id, { role: "Tutor" });
    expect(promoted.status).toBe(200);
    expect(await promoted.json()).toEqual({
      user: {
        id: someone.id,
        firstName: "Alex",
        lastName: "Tan",
        nickname: null,
        email: someone.email,
        role: "Tutor",
      },
    });
    expect((await roleOf(someone.id)).role).toBe("Tutor");
    expect((await listUsers(someone.cookie)).status).toBe(200);

    expect((await changeRole(admin.cookie, someone.id, { role: "Student" })).status).toBe(200);
    expect((await listUsers(someone.cookie)).status).toBe(403);
  });

  it("writes nothing when the role is already the one asked for", async () => {
    const someone = await signedInAs("Tutor");
    const before = await roleOf(someone.id);
    await pause(20);
    const response = await changeRole(admin.cookie, someone.id, { role: "Tutor" });
    expect(response.status).toBe(200);
    expect((await response.json()).user.role).toBe("Tutor");
    expect(await roleOf(someone.id)).toEqual(before);
  });

  it("answers 404 for an unknown user", async () => {
    const response = await changeRole(admin.cookie, "no-such-user", { role: "Tutor" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "NOT_FOUND", message: "There is no such user." } });
  });

  it.each([
    ["no role", {}, "Role is required."],
    ["an unknown role", { role: "Superuser" }, 'Role must be "Student", "Tutor" or "Admin".'],
    ["a lower-case role", { role: "admin" }, 'Role must be "Student", "Tutor" or "Admin".'],
    ["another field beside the role", { role: "Tutor", email: "x@example.com" }, undefined],
    ["an array", [{ role: "Tutor" }], undefined],
  ])("refuses a body with %s and writes nothing", async (_label, body, message) => {
    const someone = await signedInAs("Student");
    const before = await roleOf(someone.id);
    const response = await changeRole(admin.cookie, someone.id, body);
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error).toMatchObject({ code: "BAD_REQUEST", message: "The request is not valid." });
    if (message) expect(error.issues).toEqual([{ path: "role", message }]);
    expect(await roleOf(someone.id)).toEqual(before);
  });

  it("refuses a Tutor, and a learner promoting themself, with 403 and changes nothing", async () => {
    const someone = await signedInAs("Student");
    const before = await roleOf(someone.id);
    expect((await changeRole(tutor.cookie, someone.id, { role: "Tutor" })).status).toBe(403);
    expect((await changeRole(someone.cookie, someone.id, { role: "Admin" })).status).toBe(403);
    expect((await changeRole(undefined, someone.id, { role: "Admin" })).status).toBe(401);
    expect(await roleOf(someone.id)).toEqual(before);
  });
});

describe("the last Admin", () => {
  it("cannot stop being an Admin while no one else is one", async () => {
    const only = await signedInAs("Admin");
    await onlyAdmins(only.id);
    for (const role of ["Tutor", "Student"] as const) {
      const response = await changeRole(only.cookie, only.id, { role });
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({
        error: { code: "LAST_ADMIN", message: "Jalan needs at least one admin. Make someone else an admin first." },
      });
    }
    expect((await roleOf(only.id)).role).toBe("Admin");
    // Making themself Admin again is no change, so it is allowed.
    expect((await changeRole(only.cookie, only.id, { role: "Admin" })).status).toBe(200);
  });

  it("can step down once another Admin exists, and then loses the Admin API at once", async () => {
    const first = await signedInAs("Admin");
    const second = await signedInAs("Student");
    await onlyAdmins(first.id);
    expect((await changeRole(first.cookie, second.id, { role: "Admin" })).status).toBe(200);
    expect((await changeRole(first.cookie, first.id, { role: "Tutor" })).status).toBe(200);
    expect(await adminCount()).toBe(1);
    expect((await changeRole(first.cookie, first.id, { role: "Admin" })).status).toBe(403);
    // The one Admin left is protected the same way.
    expect((await changeRole(second.cookie, second.id, { role: "Student" })).status).toBe(409);
  });

  it("demoting another Admin always leaves one: the caller, who then cannot demote themself", async () => {
    const first = await signedInAs("Admin");
    const second = await signedInAs("Admin");
    await onlyAdmins(first.id, second.id);
    expect((await changeRole(first.cookie, second.id, { role: "Student" })).status).toBe(200);
    expect((await changeRole(second.cookie, first.id, { role: "Student" })).status).toBe(403);
    expect((await changeRole(first.cookie, first.id, { role: "Student" })).status).toBe(409);
    expect(await adminCount()).toBe(1);
  });

  it("holds when two Admins demote each other at the same moment: one is refused, one Admin remains", async () => {
    const first = await signedInAs("Admin");
    const second = await signedInAs("Admin");
    // Without the lock both requests pass their checks in most of a few rounds; with it, none does.
    for (let round = 0; round < 10; round += 1) {
      await onlyAdmins(first.id, second.id);
      const responses = await Promise.all([
        changeRole(first.cookie, second.id, { role: "Student" }),
        changeRole(second.cookie, first.id, { role: "Student" }),
      ]);
      const statuses = responses.map((response) => response.status);
      // The other is refused: 409, or 403 when its sender had already lost the role. Never both.
      expect(
        statuses.filter((status) => status === 200),
        `round ${round}: ${statuses}`,
      ).toHaveLength(1);
      expect(await adminCount(), `round ${round}`).toBe(1);
    }
  });

  it("refuses a change whose sender lost the Admin role while their request waited for the lock", async () => {
    const former = await signedInAs("Tutor");
    const someone = await signedInAs("Student");
    // The route checked the sender's role on arrival; the service checks it again under the lock.
    const refused = await createUsersService(t.db)
      .changeRole(former.id, someone.id, "Admin")
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).status).toBe(403);
    expect((await roleOf(someone.id)).role).toBe("Student");
  });

  it("stops no one from changing roles that are not Admin while there is one Admin", async () => {
    const only = await signedInAs("Admin");
    const someone = await signedInAs("Student");
    await onlyAdmins(only.id);
    expect((await changeRole(only.cookie, someone.id, { role: "Tutor" })).status).toBe(200);
    expect((await changeRole(only.cookie, someone.id, { role: "Student" })).status).toBe(200);
    expect(await adminCount()).toBe(1);
  });
});
