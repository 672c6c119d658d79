import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "#server/logger";
import { createNotifications } from "./notifications";

const url = process.env.TEST_DATABASE_URL!;
const sender = new pg.Pool({ connectionString: url, max: 2 });
const listeners: ReturnType<typeof createNotifications>[] = [];
afterAll(async () => {
  await Promise.all(listeners.map((listener) => listener.close()));
  await sender.end();
});

function listener() {
  const made = createNotifications(url, createLogger("silent"));
  listeners.push(made);
  return made;
}

/** The payloads a channel's handler has had, and a wait for the next. */
async function heard(notifications: ReturnType<typeof listener>, channel: string) {
  const payloads: string[] = [];
  await notifications.subscribe(channel, (payload) => payloads.push(payload));
  return {
    payloads,
    async until(count: number) {
      const deadline = Date.now() + 10_000;
      while (payloads.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      return payloads;
    },
  };
}

describe("notifications", () => {
  it("reach every instance listening, in the order their transactions committed", async () => {
    const [one, two] = [listener(), listener()];
    const [onOne, onTwo] = [await heard(one, "test_order"), await heard(two, "test_order")];
    for (const payload of ["1", "2", "3"]) await sender.query("select pg_notify('test_order', $1)", [payload]);
    expect(await onOne.until(3)).toEqual(["1", "2", "3"]);
    expect(await onTwo.until(3)).toEqual(["1", "2", "3"]);
  });

  it("come again after the listening connection is lost, and say so to who asked", async () => {
    const notifications = listener();
    const channel = await heard(notifications, "test_again");
    let reconnects = 0;
    notifications.onReconnect(() => {
      reconnects += 1;
    });
    await sender.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where query = 'listen test_again' and pid <> pg_backend_pid()",
    );
    const deadline = Date.now() + 10_000;
    while (reconnects === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reconnects).toBe(1);
    expect(notifications.listening).toBe(true);
    await sender.query("select pg_notify('test_again', 'after')");
    expect(await channel.until(1)).toEqual(["after"]);
  });

  it("refuse a channel name that is not an identifier of ours", async () => {
    await expect(listener().subscribe("room; drop table users", () => undefined)).rejects.toThrow(
      "is not a channel name",
    );
  });
});
