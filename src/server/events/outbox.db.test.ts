import { and, eq, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createNotifications } from "#server/db/notifications";
import { eventDelivery, eventOutbox, mailOutbox } from "#server/db/schema";
import { createTestApp } from "#tests/test-app";
import { claimDeliveries } from "./event-rows";
import { type EventHandler, on } from "./events";
import { createEventOutbox, MAX_EVENT_ATTEMPTS } from "./outbox";

const t = await createTestApp();

/** An event of a probe module, whose handler writes one email per event in its transaction. */
const probed = { name: "probe.happened", payload: z.object({ n: z.number().int() }).strict() };

let runs = 0;
const mailProbe = on(probed, async ({ n }, tx) => {
  runs += 1;
  await t.mailer.send({ to: `probe-${n}@example.com`, subject: `Probe ${n}`, text: "It happened." }, tx);
});

/** A dispatcher of this test's probe module, as one instance would have it. */
function dispatcher(handles: EventHandler[] = [mailProbe], retryDelayMs = () => 0) {
  const outbox = createEventOutbox({ db: t.db, logger: t.logger, retryDelayMs });
  outbox.register([{ name: "probe", emits: [probed], handles }]);
  return outbox;
}

async function probeMails(n: number) {
  return t.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.recipient, `probe-${n}@example.com`));
}

async function deliveryOf(n: number) {
  const [row] = await t.db
    .select({
      attempts: eventDelivery.attempts,
      deliveredAt: eventDelivery.deliveredAt,
      lastError: eventDelivery.lastError,
    })
    .from(eventDelivery)
    .innerJoin(eventOutbox, eq(eventOutbox.id, eventDelivery.eventId))
    .where(and(eq(eventOutbox.name, probed.name), eq(eventOutbox.payload, { n })));
  return row;
}

describe("the event outbox", () => {
  it("runs each handler once per event when two dispatchers deliver at the same time", async () => {
    const [first, second] = [dispatcher(), dispatcher()];
    const numbers = Array.from({ length: 45 }, (_, i) => 1000 + i);
    for (const n of numbers) await t.db.transaction((tx) => first.emit(tx, probed, { n }));
    runs = 0;

    await Promise.all([first.deliverAll(), second.deliverAll(), first.deliverAll(), second.deliverAll()]);

    expect(runs).toBe(numbers.length);
    for (const n of numbers) {
      expect(await probeMails(n)).toHaveLength(1);
      expect((await deliveryOf(n))?.deliveredAt).toBeInstanceOf(Date);
    }
  });

  it("delivers, once, what a dispatcher claimed before its instance died, when the claim runs out", async () => {
    const outbox = dispatcher();
    await t.db.transaction((tx) => outbox.emit(tx, probed, { n: 1500 }));
    // Another instance claims it and dies (kill -9) before its handler's transaction commits.
    const handlers = ["probe:probe.happened"];
    const claimed = await claimDeliveries(t.db, { handlers, batch: 100, claimSeconds: 120, maxAttempts: 8 });
    expect(claimed.map((each) => each.payload)).toContainEqual({ n: 1500 });

    await outbox.deliverAll();
    expect(await probeMails(1500)).toEqual([]);

    // Its claim runs out: the living instance takes it.
    await t.db
      .update(eventDelivery)
      .set({ claimedUntil: new Date(Date.now() - 1000) })
      .where(isNull(eventDelivery.deliveredAt));
    await outbox.deliverAll();
    expect(await probeMails(1500)).toHaveLength(1);
    expect(await deliveryOf(1500)).toMatchObject({ attempts: 2, lastError: null });
  });

  it("records nothing, and runs nothing, when the emitting transaction rolls back", async () => {
    const outbox = dispatcher();
    await expect(
      t.db.transaction(async (tx) => {
        await outbox.emit(tx, probed, { n: 2000 });
        throw new Error("the write that went with it failed");
      }),
    ).rejects.toThrow("the write that went with it failed");

    await outbox.deliverAll();
    expect(await deliveryOf(2000)).toBeUndefined();
    expect(await probeMails(2000)).toEqual([]);
  });

  it("rolls back a failed handler's writes, keeps its error, and tries it again until it is done once", async () => {
    let failures = 1;
    const flaky = on(probed, async (payload, tx, meta) => {
      await mailProbe.run(payload, tx, meta);
      if (failures-- > 0) throw new Error("the calendar server did not answer");
    });
    const outbox = dispatcher([flaky]);
    await t.db.transaction((tx) => outbox.emit(tx, probed, { n: 3000 }));

    await outbox.deliverAll();
    expect(await deliveryOf(3000)).toMatchObject({
      attempts: 1,
      deliveredAt: null,
      lastError: "the calendar server did not answer",
    });
    expect(await probeMails(3000)).toEqual([]);

    await outbox.deliverAll();
    expect(await deliveryOf(3000)).toMatchObject({ attempts: 2, lastError: null });
    expect(await probeMails(3000)).toHaveLength(1);
  });

  it(`keeps a delivery that failed ${MAX_EVENT_ATTEMPTS} times with its last error, and tries it no more`, async () => {
    const broken = on(probed, async () => {
      throw new Error("always broken");
    });
    const outbox = dispatcher([broken]);
    await t.db.transaction((tx) => outbox.emit(tx, probed, { n: 4000 }));

    for (let i = 0; i < MAX_EVENT_ATTEMPTS + 2; i++) await outbox.deliverAll();
    expect(await deliveryOf(4000)).toMatchObject({
      attempts: MAX_EVENT_ATTEMPTS,
      deliveredAt: null,
      lastError: "always broken",
    });
    // The outbox's figures count it as given up, not waiting, and a person reads why (npm run events).
    expect((await outbox.stats()).failed).toBeGreaterThanOrEqual(1);
    expect(await outbox.undone(50)).toContainEqual(
      expect.objectContaining({ name: probed.name, payload: { n: 4000 }, lastError: "always broken" }),
    );

    // Its cause fixed, `npm run events -- retry` gives it its attempts back: it is done, once.
    const fixed = dispatcher();
    expect(await fixed.retryGivenUp()).toBeGreaterThanOrEqual(1);
    await fixed.deliverAll();
    expect(await deliveryOf(4000)).toMatchObject({ attempts: 1, lastError: null });
    expect(await probeMails(4000)).toHaveLength(1);
  });

  it("waits the backoff after a failure before trying again", async () => {
    let failures = 1;
    const flaky = on(probed, async (payload, tx, meta) => {
      if (failures-- > 0) throw new Error("not yet");
      await mailProbe.run(payload, tx, meta);
    });
    const outbox = dispatcher([flaky], () => 60 * 60_000);
    await t.db.transaction((tx) => outbox.emit(tx, probed, { n: 5000 }));

    await outbox.deliverAll();
    await outbox.deliverAll();
    expect(await deliveryOf(5000)).toMatchObject({ attempts: 1, deliveredAt: null });

    // The hour has passed.
    await t.db.update(eventDelivery).set({ claimedUntil: new Date(Date.now() - 1000) });
    await outbox.deliverAll();
    expect(await probeMails(5000)).toHaveLength(1);
  });

  it("is delivered right after the emitting transaction commits, woken by NOTIFY, with no sweep", async () => {
    const outbox = dispatcher();
    const notifications = createNotifications(process.env.TEST_DATABASE_URL!, t.logger);
    try {
      await outbox.listen(notifications);
      await t.db.transaction((tx) => outbox.emit(tx, probed, { n: 6000 }));
      await expect.poll(async () => (await probeMails(6000)).length, { timeout: 10_000 }).toBe(1);
    } finally {
      await outbox.close();
      await notifications.close();
    }
  });

  it("refuses a payload its schema does not accept, and an event no module declares, writing nothing", async () => {
    const outbox = dispatcher();
    const before = await t.db.$count(eventOutbox);
    await expect(t.db.transaction((tx) => outbox.emit(tx, probed, { n: 1.5 }))).rejects.toThrow();
    const undeclared = { name: "probe.unknown", payload: z.object({}) };
    await expect(t.db.transaction((tx) => outbox.emit(tx, undeclared, {}))).rejects.toThrow(
      'No module declares the event "probe.unknown".',
    );
    expect(await t.db.$count(eventOutbox)).toBe(before);
  });

  it("parses a payload read back, and gives a malformed one to no handler", async () => {
    const outbox = dispatcher();
    const [event] = await t.db
      .insert(eventOutbox)
      .values({ name: probed.name, payload: { n: "seven" } })
      .returning();
    await t.db.insert(eventDelivery).values({ eventId: event!.id, handler: "probe:probe.happened" });
    runs = 0;

    await outbox.deliverAll();
    expect(runs).toBe(0);
    const [row] = await t.db.select().from(eventDelivery).where(eq(eventDelivery.eventId, event!.id));
    expect(row).toMatchObject({ attempts: 1, deliveredAt: null });
    expect(row!.lastError).toMatch(/expected number/i);
  });

  it("deletes, in its sweep, the events handled more than 7 days ago, and keeps those not done", async () => {
    const outbox = dispatcher();
    const weekAgo = new Date(Date.now() - 8 * 24 * 60 * 60_000);
    const [done, undone, recent] = await t.db
      .insert(eventOutbox)
      .values([8000, 8001, 8002].map((n) => ({ name: probed.name, payload: { n }, createdAt: weekAgo })))
      .returning({ id: eventOutbox.id });
    await t.db.insert(eventDelivery).values([
      { eventId: done!.id, handler: "probe:probe.happened", deliveredAt: weekAgo },
      { eventId: undone!.id, handler: "probe:probe.happened", attempts: MAX_EVENT_ATTEMPTS, lastError: "gave up" },
    ]);
    await t.db.update(eventOutbox).set({ createdAt: new Date() }).where(eq(eventOutbox.id, recent!.id));

    await outbox.job.run();
    const left = await t.db.select({ id: eventOutbox.id }).from(eventOutbox);
    expect(left.map((row) => row.id)).not.toContain(done!.id);
    expect(left.map((row) => row.id)).toEqual(expect.arrayContaining([undone!.id, recent!.id]));
  });

  it("refuses modules whose declarations do not add up", () => {
    const outbox = createEventOutbox({ db: t.db, logger: t.logger });
    expect(() => outbox.register([{ name: "probe", handles: [mailProbe] }])).toThrow(
      "probe:probe.happened handles an event no module emits.",
    );
    expect(() =>
      outbox.register([
        { name: "probe", emits: [probed] },
        { name: "echo", emits: [probed] },
      ]),
    ).toThrow('Two modules emit the event "probe.happened".');
  });
});
