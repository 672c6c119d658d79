import type { Hono, Schema } from "hono";
import type { AppEnv } from "#server/http/context";

/** The JSON bodies a module accepts unless its face says otherwise. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** Work a module runs in the background on every instance, every `everyMs` (src/server/jobs.ts). */
export interface Job {
  name: string;
  everyMs: number;
  run: () => Promise<unknown>;
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
