import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { backoffMs, createOutbox, type SentAnswer, WriteRefused, WriteWaiting } from "./outbox";
import { OutboxDatabase, type WriteRequest } from "./outbox-store";
import { onSendTrigger, triggerSend, watchOnline } from "./send-triggers";

/**
 * A stand-in for the network and the server: records what arrives, in order, and answers with what
 * the test set for the path (a status and body, or no connection at all).
 */
function fakeServer() {
  const received: { path: string; clientId: string; body: unknown }[] = [];
  const answers = new Map<string, SentAnswer | "unreachable">();
  let down = false;
  const stored = new Set<string>();
  return {
    received,
    /** Each client id the server stored (a resend would store it once). */
    stored,
    setDown: (value: boolean) => {
      down = value;
    },
    answer: (path: string, value: SentAnswer | "unreachable") => answers.set(path, value),
    transport: async (request: WriteRequest, clientId: string): Promise<SentAnswer> => {
      if (down) throw new TypeError("Failed to fetch");
      const set = answers.get(request.path);
      if (set === "unreachable") throw new TypeError("Failed to fetch");
      received.push({ path: request.path, clientId, body: request.body });
      if (set) return set;
      stored.add(clientId);
      return { status: 200, body: { ok: request.path } };
    },
  };
}

let count = 0;
const outboxes: { stop: () => void }[] = [];
function setUp(account: { current: string | null } = { current: "learner-1" }) {
  const server = fakeServer();
  const store = new OutboxDatabase(`outbox-test-${++count}`);
  const outbox = createOutbox({
    store,
    transport: server.transport,
    owner: () => account.current,
    backoff: { firstMs: 1_000, maxMs: 8_000 },
  });
  outboxes.push(outbox);
  return { server, store, outbox, account };
}

const write = (path: string, kind: "progress" | "answer" | "review" | "mark" = "progress") => ({
  kind,
  label: `Write to ${path}`,
  request: { method: "PUT" as const, path, body: { status: "completed" } },
});

/** Submits and waits for the outcome, whatever it is. */
const settled = (promise: Promise<unknown>): Promise<{ body?: unknown; error?: unknown }> =>
  promise.then(
    (body) => ({ body }),
    (error: unknown) => ({ error }),
  );

afterEach(() => {
  for (const outbox of outboxes.splice(0)) outbox.stop();
  vi.useRealTimers();
});

describe("the device outbox", () => {
  it("sends writes made offline in the order they were made, once the device is back online", async () => {
    const { server, outbox } = setUp();
    server.setDown(true);
    const made = [write("/progress/c1/d1/t1"), write("/answers", "answer"), write("/review/answers", "review")];
    for (const each of made) expect((await settled(outbox.submit(each))).error).toBeInstanceOf(WriteWaiting);
    expect(await outbox.waiting()).toBe(3);

    server.setDown(false);
    await outbox.flush({ now: true });
    expect(server.received.map((each) => each.path)).toEqual(["/progress/c1/d1/t1", "/answers", "/review/answers"]);
    expect(await outbox.waiting()).toBe(0);
  });

  it("answers the server's body at once when online, and sends an acknowledged write only once", async () => {
    const { server, outbox, store } = setUp();
    expect(await outbox.submit(write("/progress/c1/d1/t1"))).toEqual({ ok: "/progress/c1/d1/t1" });
    await outbox.flush({ now: true });
    await outbox.flush({ now: true });
    expect(server.received).toHaveLength(1);
    expect(await store.writes.count()).toBe(0);
  });

  it("keeps the client id and the device's time of a write, and sends the same id on every attempt", async () => {
    const { server, outbox, store } = setUp();
    server.answer("/answers", { status: 503, body: null });
    await settled(outbox.submit({ ...write("/answers", "answer"), clientId: "c0ffee00-0000-4000-8000-000000000001" }));
    const [kept] = await store.writes.toArray();
    expect(kept).toMatchObject({ clientId: "c0ffee00-0000-4000-8000-000000000001", kind: "answer", attempts: 1 });
    expect(Date.parse(kept!.madeAt)).toBeLessThanOrEqual(Date.now());
    server.answer("/answers", { status: 200, body: {} });
    await outbox.flush({ now: true });
    expect(server.received.map((each) => each.clientId)).toEqual([
      "c0ffee00-0000-4000-8000-000000000001",
      "c0ffee00-0000-4000-8000-000000000001",
    ]);
  });

  it("waits longer after each failed send (network, 5xx, 429), and sends again on its own", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { server, outbox } = setUp();
    server.answer("/progress/c1/d1/t1", "unreachable");
    await settled(outbox.submit(write("/progress/c1/d1/t1")));
    server.answer("/progress/c1/d1/t1", { status: 502, body: null });
    await vi.advanceTimersByTimeAsync(999);
    await outbox.flush();
    expect(server.received).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    await outbox.flush();
    expect(server.received).toHaveLength(1); // the 502, after 1 s
    server.answer("/progress/c1/d1/t1", { status: 429, body: null, retryAfterMs: 5_000 });
    await vi.advanceTimersByTimeAsync(2_000); // 2 s after the 502
    await outbox.flush();
    expect(server.received).toHaveLength(2); // the 429 asked for 5 s, more than the 4 s of the backoff
    server.answer("/progress/c1/d1/t1", { status: 200, body: {} });
    await vi.advanceTimersByTimeAsync(4_999);
    await outbox.flush();
    expect(server.received).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await outbox.flush();
    expect(server.received).toHaveLength(3);
    expect(await outbox.waiting()).toBe(0);
  });

  it("doubles the wait up to its cap", () => {
    const options = { firstMs: 1_000, maxMs: 8_000 };
    expect([1, 2, 3, 4, 5, 9].map((attempts) => backoffMs(attempts, options))).toEqual([
      1_000, 2_000, 4_000, 8_000, 8_000, 8_000,
    ]);
    expect(backoffMs(1, options, 3_000)).toBe(3_000);
  });

  it("holds the writes after one that must wait, so a later task's answers never go before its progress", async () => {
    const { server, outbox } = setUp();
    server.answer("/progress/c1/d2/t1", "unreachable");
    await settled(outbox.submit(write("/progress/c1/d2/t1")));
    await settled(outbox.submit(write("/answers", "answer")));
    expect(server.received).toHaveLength(0);
    server.answer("/progress/c1/d2/t1", { status: 200, body: {} });
    triggerSend(); // nothing listens yet: the outbox is sent by its owner's listener
    const stop = onSendTrigger(() => void outbox.flush({ now: true }));
    triggerSend();
    stop();
    await outbox.flush();
    expect(server.received.map((each) => each.path)).toEqual(["/progress/c1/d2/t1", "/answers"]);
  });

  it("keeps a write the server refused with its reason, sends the ones after it, and lets the learner dismiss it", async () => {
    const { server, outbox } = setUp();
    const locked = { error: { code: "DAY_LOCKED", message: "Day 2 is locked. Finish Day 1 first." } };
    server.answer("/progress/c1/d2/t1", { status: 409, body: locked });
    const outcome = await settled(outbox.submit(write("/progress/c1/d2/t1")));
    expect(outcome.error).toBeInstanceOf(WriteRefused);
    expect(await outbox.submit(write("/progress/c1/d1/t2"))).toEqual({ ok: "/progress/c1/d1/t2" });

    const [refused, ...others] = await outbox.refused();
    expect(others).toEqual([]);
    expect(refused).toMatchObject({
      kind: "progress",
      label: "Write to /progress/c1/d2/t1",
      state: "refused",
      refusal: { status: 409, code: "DAY_LOCKED", message: "Day 2 is locked. Finish Day 1 first." },
    });
    await outbox.flush({ now: true });
    expect(server.received.filter((each) => each.path === "/progress/c1/d2/t1")).toHaveLength(1);
    await outbox.dismiss(refused!.seq);
    expect(await outbox.refused()).toEqual([]);
  });

  it("keeps a write refused for a sign-out (401) and sends it again when asked after signing in", async () => {
    const { server, outbox } = setUp();
    server.answer("/review/answers", {
      status: 401,
      body: { error: { code: "UNAUTHORIZED", message: "Please sign in." } },
    });
    const outcome = await settled(outbox.submit(write("/review/answers", "review")));
    expect(outcome.error).toBeInstanceOf(WriteRefused);
    const [refused] = await outbox.refused();
    expect(refused?.refusal).toMatchObject({ status: 401, message: "Please sign in." });

    server.answer("/review/answers", { status: 200, body: {} });
    await outbox.retry(refused!.seq);
    expect(await outbox.refused()).toEqual([]);
    expect(await outbox.waiting()).toBe(0);
    expect(server.received.map((each) => each.path)).toEqual(["/review/answers", "/review/answers"]);
  });

  it("tells a learner signed out with no message of the server's why it was refused", async () => {
    const { server, outbox } = setUp();
    server.answer("/progress/c1/d1/t1", { status: 401, body: null });
    await settled(outbox.submit(write("/progress/c1/d1/t1")));
    const [refused] = await outbox.refused();
    expect(refused?.refusal?.message).toMatch(/signed out/);
  });

  it("sends only the signed-in account's writes", async () => {
    const account = { current: "learner-1" as string | null };
    const { server, outbox } = setUp(account);
    server.setDown(true);
    await settled(outbox.submit(write("/progress/c1/d1/t1")));
    account.current = "learner-2";
    server.setDown(false);
    await outbox.flush({ now: true });
    expect(server.received).toEqual([]);
    account.current = "learner-1";
    await outbox.flush({ now: true });
    expect(server.received).toHaveLength(1);
  });

  it("lists a refused take beside the refused writes", async () => {
    const { outbox } = setUp();
    await outbox.reportRefused({ label: "Your take of a line", status: 413, code: "TOO_LARGE", message: "Too large." });
    expect(await outbox.refused()).toMatchObject([{ kind: "take", request: null, refusal: { status: 413 } }]);
  });

  it("fires the triggers on the browser's online event", () => {
    const target = new EventTarget();
    const fired = vi.fn();
    const stop = onSendTrigger(fired);
    const unwatch = watchOnline(target as unknown as Window);
    target.dispatchEvent(new Event("online"));
    unwatch();
    target.dispatchEvent(new Event("online"));
    stop();
    expect(fired).toHaveBeenCalledTimes(1);
  });
});
