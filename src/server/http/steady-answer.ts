import type { MiddlewareHandler } from "hono";

/**
 * Answers no sooner than `floorMs` after the request arrived. A route whose work differs with a
 * secret (password reset: an account exists, so a token is stored and an email written) would
 * otherwise tell that secret by how long it takes; with a floor well above that work, the time is
 * the floor's either way (docs/decisions/028).
 *
 * Node measures a timer from the event loop's cached clock, which can lag the real one by a
 * millisecond or more, so a timer can fire that much early: the wait repeats until the floor has
 * truly passed.
 */
export function steadyAnswer(floorMs: number): MiddlewareHandler {
  return async (_c, next) => {
    const started = performance.now();
    await next();
    for (let left = floorMs - (performance.now() - started); left > 0; left = floorMs - (performance.now() - started)) {
      await new Promise((resolve) => setTimeout(resolve, Math.ceil(left)));
    }
  };
}
