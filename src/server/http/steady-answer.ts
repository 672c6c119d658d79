import type { MiddlewareHandler } from "hono";

/**
 * Answers no sooner than `floorMs` after the request arrived. A route whose work differs with a
 * secret (password reset: an account exists, so a token is stored and an email written) would
 * otherwise tell that secret by how long it takes; with a floor well above that work, the time is
 * the floor's either way (docs/decisions/028).
 */
export function steadyAnswer(floorMs: number): MiddlewareHandler {
  return async (_c, next) => {
    const started = performance.now();
    await next();
    const left = floorMs - (performance.now() - started);
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  };
}
