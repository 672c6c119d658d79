import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { steadyAnswer } from "./steady-answer";

const FLOOR_MS = 40;

/** Holds the thread, as a route's synchronous work does, so the event loop's cached clock falls behind. */
function busy(ms: number) {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

describe("steadyAnswer", () => {
  it("answers no sooner than the floor, even after synchronous work left the loop's clock behind", async () => {
    const app = new Hono();
    app.post("/reset", steadyAnswer(FLOOR_MS), async (c) => {
      // An await first, so the work below runs after the loop last read its clock.
      await Promise.resolve();
      busy(15);
      return c.json({ status: true });
    });
    for (let round = 0; round < 10; round += 1) {
      const started = performance.now();
      const response = await app.request("/reset", { method: "POST" });
      const took = performance.now() - started;
      expect(response.status).toBe(200);
      expect(took).toBeGreaterThanOrEqual(FLOOR_MS);
    }
  });

  describe("on a clock the test moves", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** When the answer to a request whose work takes `workMs` arrives, on the faked clock. */
    async function answeredAt(floorMs: number, workMs: number): Promise<number> {
      vi.useFakeTimers({ toFake: ["setTimeout", "performance"] });
      const app = new Hono();
      app.post("/reset", steadyAnswer(floorMs), async (c) => {
        await new Promise((resolve) => setTimeout(resolve, workMs));
        return c.json({ status: true });
      });
      const started = performance.now();
      let answered: number | undefined;
      const request = Promise.resolve(app.request("/reset", { method: "POST" })).then((response) => {
        answered = performance.now() - started;
        return response;
      });
      await vi.runAllTimersAsync();
      expect((await request).status).toBe(200);
      return answered!;
    }

    it("answers at the floor exactly, whether the work took 1 ms or nearly the floor: the time tells nothing", async () => {
      // An unknown address (no account found) and a known one (a token stored, an email written).
      for (const workMs of [1, 3, 40, 249]) expect(await answeredAt(250, workMs)).toBe(250);
    });

    it("answers when the work is done if it outlasts the floor", async () => {
      expect(await answeredAt(250, 400)).toBe(400);
    });
  });
});
