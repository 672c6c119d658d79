import { hc } from "hono/client";
import type { ApiRoutes } from "#server/modules/registry";
import { API_BASE } from "#web/lib/api";
import type { AppInProcess } from "./app-in-process";

/**
 * The web's typed client over the app in process, for what a test does through the API before or
 * beside the page (another device's answer, a learner's set-up): it goes through the bridge with
 * the test's cookies, whatever the page's fetch is at that moment. Send with `call` (lib/api.ts).
 */
export const appClient = (app: AppInProcess) =>
  hc<ApiRoutes>(API_BASE, { headers: { accept: "application/json" }, fetch: app.fetch });
