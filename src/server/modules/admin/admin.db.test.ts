import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "#course/roles";
import { contactMessage, user as userTable } from "#server/db/schema";
import { createTestApp } from "#tests/test-app";

const t = await createTestApp();

const INBOX = "/api/admin/contact-messages";

async function signedInAs(role: Role) {
  const session = await t.signedInUser();
  await t.db.update(userTable).set({ role }).where(eq(userTable.email, session.user.email));
  const [row] = await t.db.select().from(userTable).where(eq(userTable.email, session.user.email));
  return { ...session, id: row!.id };
}

let admin: Awaited<ReturnType<typeof signedInAs>>;
let sender: Awaited<ReturnType<typeof signedInAs>>;

beforeAll(async () => {
  admin = await signedInAs("Admin");
  sender = await signedInAs("Student");
  // 25 messages, one a minute: message 25 is the newest. Message 3 came from a signed-in learner.
  for (let n = 1; n <= 25; n += 1) {
    await t.db.insert(contactMessage).values({
      fullName: `Sender ${n}`,
      email: `sender${n}@example.com`,
      message: n === 7 ? "<img src=x onerror=alert(1)> Terima kasih!" : `Message ${n}`,
      userId: n === 3 ? sender.id : null,
      createdAt: sql`now() - make_interval(mins => ${60 - n})`,
    });
  }
});

describe("GET /api/admin/contact-messages", () => {
  it("needs a session", async () => {
    const response = await t.request(INBOX);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code: "UNAUTHORIZED", message: "Please sign in to continue." } });
  });

  it.each(["Student", "Tutor"] as const)("refuses a %s with 403", async (role) => {
    const { cookie } = await signedInAs(role);
    const response = await t.request(INBOX, { cookie });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: { code: "FORBIDDEN", message: "You do not have permission to do that." },
    });
  });

  it("refuses the learner who sent a message too: it is the Admins' inbox", async () => {
    const response = await t.request(INBOX, { cookie: sender.cookie });
    expect(response.status).toBe(403);
  });

  it("gives an Admin the newest 20 first, with the total, never cached", async () => {
    const response = await t.request(INBOX, { cookie: admin.cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toMatchObject({ page: 1, perPage: 20, total: 25 });
    expect(body.messages.map((message: { fullName: string }) => message.fullName)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Sender ${25 - i}`),
    );
    expect(body.messages[0]).toEqual({
      id: expect.any(String),
      fullName: "Sender 25",
      email: "sender25@example.com",
      message: "Message 25",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      userId: null,
    });
    expect(Object.keys(body.messages[0])).not.toContain("clientKey");
  });

  it("pages through the rest, and returns the text exactly as sent", async () => {
    const second = await (await t.request(`${INBOX}?page=2&perPage=20`, { cookie: admin.cookie })).json();
    expect(second).toMatchObject({ page: 2, perPage: 20, total: 25 });
    expect(second.messages.map((message: { fullName: string }) => message.fullName)).toEqual([
      "Sender 5",
      "Sender 4",
      "Sender 3",
      "Sender 2",
      "Sender 1",
    ]);
    expect(second.messages[2].userId).toBe(sender.id);

    const small = await (await t.request(`${INBOX}?page=10&perPage=2`, { cookie: admin.cookie })).json();
    expect(small.messages.map((message: { message: string }) => message.message)).toEqual([
      "<img src=x onerror=alert(1)> Terima kasih!",
      "Message 6",
    ]);

    const beyond = await (await t.request(`${INBOX}?page=4`, { cookie: admin.cookie })).json();
    expect(beyond).toMatchObject({ messages: [], page: 4, total: 25 });
  });

  it.each([
    ["page=0", "page"],
    ["page=-1", "page"],
    ["page=1.5", "page"],
    ["page=abc", "page"],
    ["perPage=0", "perPage"],
    ["perPage=1000", "perPage"],
    ["perPage=", "perPage"],
  ])("refuses %s with a 400 naming the parameter", async (query, field) => {
    const response = await t.request(`${INBOX}?${query}`, { cookie: admin.cookie });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.issues.map((issue: { path: string }) => issue.path)).toEqual([field]);
  });

  it("stops answering an Admin on the very next request after they lose the role", async () => {
    const former = await signedInAs("Admin");
    expect((await t.request(INBOX, { cookie: former.cookie })).status).toBe(200);
    await t.db.update(userTable).set({ role: "Tutor" }).where(eq(userTable.id, former.id));
    expect((await t.request(INBOX, { cookie: former.cookie })).status).toBe(403);
  });

  it("keeps every other /api/admin path behind the same guard", async () => {
    expect((await t.request("/api/admin/anything")).status).toBe(401);
  });
});
