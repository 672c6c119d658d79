import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { connectDatabase } from "#server/db/client";
import { user as userTable } from "#server/db/schema";
import { statementCounter } from "#tests/statement-count";
import { createTestApp } from "#tests/test-app";
import { createUsersService } from "./users.service";

/**
 * The one read of people (docs/decisions/073-one-owner-of-people.md): the display facts of any set
 * of users, in one statement whatever their number, the address only when asked.
 */
const t = await createTestApp();
const counted = connectDatabase(t.env.DATABASE_URL!, t.logger, { max: 2 });
afterAll(() => counted.close());
const counter = statementCounter(counted.pool);
const users = createUsersService(counted.db);

async function person(firstName: string, changes: Partial<typeof userTable.$inferInsert> = {}) {
  const { user } = await t.signedInUser({ firstName, lastName: "Tan" });
  const [row] = await t.db
    .update(userTable)
    .set({ nickname: null, ...changes })
    .where(eq(userTable.email, user.email))
    .returning({ id: userTable.id, email: userTable.email });
  return row!;
}

describe("people", () => {
  it("answers names, the name others see, role, zone and avatar, by id, leaving out ids with no account", async () => {
    const siti = await person("Siti", { role: "Tutor", timeZone: "Europe/London", avatarPath: "avatars/siti-abc" });
    const ben = await person("Benjamin", { nickname: "Benny" });
    const found = await users.people([siti.id, ben.id, "no-such-account", siti.id]);
    expect([...found.keys()].sort()).toEqual([siti.id, ben.id].sort());
    expect(found.get(siti.id)).toEqual({
      id: siti.id,
      firstName: "Siti",
      lastName: "Tan",
      nickname: null,
      name: "Siti Tan",
      role: "Tutor",
      timeZone: "Europe/London",
      avatar: { small: "/media/avatars/siti-abc-100.webp", large: "/media/avatars/siti-abc-200.webp" },
    });
    expect(found.get(ben.id)).toMatchObject({ name: "Benny", role: "Student", avatar: null });
    expect(found.get(ben.id)).not.toHaveProperty("email");
    expect(await users.people([])).toEqual(new Map());
  });

  it("gives the address only when asked", async () => {
    const nur = await person("Nur");
    expect((await users.people([nur.id], { email: true })).get(nur.id)?.email).toBe(nur.email);
  });

  it("reads one person or twelve in one statement", async () => {
    const ids: string[] = [];
    for (let each = 0; each < 12; each += 1) ids.push((await person(`Learner${each}`)).id);
    const one = await counter.during(() => users.people(ids.slice(0, 1)));
    const twelve = await counter.during(() => users.people(ids, { email: true }));
    expect(one.result.size).toBe(1);
    expect(twelve.result.size).toBe(12);
    expect(one.statements).toHaveLength(1);
    expect(twelve.statements).toHaveLength(1);
  });
});
