import { Hono } from "hono";
import { describe, expect, it } from "vitest";
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
});
