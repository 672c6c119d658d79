import type { Hono, Schema } from "hono";
import type { AppEnv } from "#server/http/context";

/** The JSON bodies a module accepts unless its face says otherwise. */
export const JSON_BODY_LIMIT = 64 * 1024;

/**
 * Work a module runs in the background every `everyMs`, once across all instances, on the queue
 * (src/server/queue/queue.ts): a failed run is retried with backoff, and one whose instance died is
 * run again by another. A run may so happen twice: `run` must be safe to repeat.
 */
export interface Job {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
  /** Tries after a failed run before it is kept failed; 3 unless given. */
  retryLimit?: number;
  /** Seconds a run may take before it counts as lost and another instance runs it; 300 unless given. */
  expireInSeconds?: number;
}

/**
 * A server module's one face: where its routes sit under /api, the largest JSON body they accept,
 * the routes themselves and the jobs it runs. `ownBodyLimit` lists the module's routes (relative to
 * `path`) that set a limit of their own, such as an upload, and so skip the module's. The registry
 * (registry.ts) mounts every face; nothing else mounts routes.
 */
export interface ModuleFace<Path extends `/${string}`, Routes extends Hono<AppEnv, Schema, string>> {
  name: string;
  path: Path;
  bodyLimit: number;
  ownBodyLimit?: readonly string[];
  routes: Routes;
  jobs?: readonly Job[];
}

export function defineModule<const Path extends `/${string}`, Routes extends Hono<AppEnv, Schema, string>>(
  face: ModuleFace<Path, Routes>,
): ModuleFace<Path, Routes> {
  return face;
}

/** Any module's face, as the registry and the authorization table list them. */
export type AnyModuleFace = ModuleFace<`/${string}`, Hono<AppEnv, Schema, string>>;
