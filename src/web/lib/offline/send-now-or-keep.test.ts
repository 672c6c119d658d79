import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "#web/lib/api";
import { setKeepingOutbox } from "./keeping";
import { createOutbox, type SentAnswer, WriteWaiting } from "./outbox";
import { OutboxDatabase, type WriteRequest } from "./outbox-store";
import { sendNowOrKeep } from "./send-now-or-keep";

let count = 0;
/** An outbox whose network answers `status` (or is down), and the paths that reached it. */
function keeping(reach: { status: number | "down" }) {
  const received: string[] = [];
  const outbox = createOutbox({
    store: new OutboxDatabase(`send-now-test-${++count}`),
    transport: async (request: WriteRequest): Promise<SentAnswer> => {
      if (reach.status === "down") throw new TypeError("Failed to fetch");
      received.push(request.path);
      return { status: reach.status, body: { from: "outbox" } };
    },
    owner: () => "learner-1",
  });
  setKeepingOutbox(outbox);
  return { outbox, received };
}

const submission = (path: string) => ({
  kind: "progress" as const,
  label: path,
  request: { method: "PUT" as const, path, body: { status: "in-progress" } },
});
const unreached = () => Promise.reject(new ApiError(0, "NETWORK", "We could not reach the server."));

afterEach(() => setKeepingOutbox(null));

describe("sendNowOrKeep", () => {
  it("sends at once as the page did, and keeps nothing, when the server answers", async () => {
    const { outbox } = keeping({ status: 200 });
    expect(await sendNowOrKeep(submission("/a"), async () => ({ from: "direct" }))).toEqual({ from: "direct" });
    expect(await outbox.waiting()).toBe(0);
  });

  it("keeps a write that could not reach the server, and sends it in order once back online", async () => {
    const reach: { status: number | "down" } = { status: "down" };
    const { outbox, received } = keeping(reach);
    await expect(sendNowOrKeep(submission("/first"), unreached)).rejects.toBeInstanceOf(WriteWaiting);
    // Online again before the outbox was sent: the next write goes behind the kept one, not before it.
    reach.status = 200;
    const direct: string[] = [];
    const second = sendNowOrKeep(submission("/second"), async () => direct.push("/second"));
    await outbox.flush({ now: true });
    expect(await second).toEqual({ from: "outbox" });
    expect(received).toEqual(["/first", "/second"]);
    expect(direct).toEqual([]);
  });

  it("throws a refusal as before, keeping nothing", async () => {
    const { outbox } = keeping({ status: 200 });
    const refused = () => Promise.reject(new ApiError(409, "DAY_LOCKED", "Day 2 is locked."));
    await expect(sendNowOrKeep(submission("/a"), refused)).rejects.toMatchObject({ status: 409 });
    expect(await outbox.waiting()).toBe(0);
  });

  it("throws a failure as before when no outbox runs (signed out, no IndexedDB)", async () => {
    await expect(sendNowOrKeep(submission("/a"), unreached)).rejects.toMatchObject({ code: "NETWORK" });
  });
});
