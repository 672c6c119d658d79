import type { ClientResponse } from "hono/client";
import { hc } from "hono/client";
import type { ApiRoutes } from "#server/modules/registry";

/** Where the API is served (src/server/modules/registry.ts, API_PREFIX). */
export const API_BASE = "/api";

/**
 * Where Better Auth answers (src/server/auth): outside the typed client, called by its own browser
 * client (lib/auth-client.ts) and by the session read (lib/session.ts, `readAuth`).
 */
export const AUTH_BASE = `${API_BASE}/auth`;

/**
 * The one typed client of the API, made from the server's route types (ApiRoutes): a call names
 * its route as a property path (`apiClient.progress.$get()`), its body, query and path parameters
 * are typed by the route's contract, and `call` gives its answer typed. Only the type of the
 * server's routes reaches the browser, none of its code.
 */
export const apiClient = hc<ApiRoutes>(API_BASE, {
  headers: { accept: "application/json" },
  init: { credentials: "same-origin" },
});

/** The body of a route's successful answers. */
type SuccessBody<R> =
  R extends ClientResponse<infer Body, infer Status, "json"> ? (Status extends 200 | 201 ? Body : never) : never;

/**
 * Sends a call made with apiClient and answers its JSON body, typed. A failure to reach the server
 * and any non-2xx answer throw an ApiError with the server's message (empty when the server gave
 * none; describeError supplies the caller's fallback).
 */
export async function call<R extends ClientResponse<unknown, number, string>>(
  request: Promise<R>,
): Promise<SuccessBody<R>> {
  return (await readAnswer(await sent(request))) as SuccessBody<R>;
}

/**
 * Like `call`, for an answer that is not read as JSON (a file to save): the response itself once it
 * is a success; a failure throws the same ApiError.
 */
export async function callForResponse<R extends ClientResponse<unknown, number, string>>(
  request: Promise<R>,
): Promise<R> {
  const response = await sent(request);
  if (!response.ok) await readAnswer(response);
  return response;
}

/**
 * Reads a Better Auth route with a plain request (its JSON, as Better Auth answers it), so its
 * browser client need not load for it.
 */
export async function readAuth<T>(path: `/${string}`): Promise<T> {
  const response = await sent(
    fetch(AUTH_BASE + path, { credentials: "same-origin", headers: { accept: "application/json" } }),
  );
  return (await readAnswer(response)) as T;
}

/**
 * Sends a request the typed client cannot make, one whose body is not JSON or a form (a recording
 * sent as it is, `audio/wav`), to `path` under API_BASE (a route's `$path()`), and answers its JSON
 * body as `call` does, failures included.
 */
export async function sendBody<T>(path: string, init: RequestInit & { body: Blob }): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set("accept", "application/json");
  const response = await sent(fetch(API_BASE + path, { ...init, headers, credentials: "same-origin" }));
  return (await readAnswer(response)) as T;
}

async function sent<R>(request: Promise<R>): Promise<R> {
  try {
    return await request;
  } catch {
    throw networkError();
  }
}

/**
 * Path parameters, encoded: the client puts them into the path as given, and an id may hold any
 * character.
 */
export function pathParams<T extends { [K in keyof T]: string }>(params: T): T {
  const entries: [string, string][] = Object.entries(params);
  return Object.fromEntries(entries.map(([key, value]) => [key, encodeURIComponent(value)])) as T;
}

const networkError = () =>
  new ApiError(0, "NETWORK", "We could not reach the server. Check your connection and try again.");

async function readAnswer(response: Pick<Response, "ok" | "status" | "json">): Promise<unknown> {
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (payload as { error?: { code?: string; message?: string; issues?: ApiIssue[] } } | null)?.error;
    throw new ApiError(response.status, error?.code ?? "ERROR", error?.message ?? "", error?.issues);
  }
  return payload;
}

/** The server's one error shape: `{ error: { code, message, issues? } }`. */
export interface ApiIssue {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: ApiIssue[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** What to tell the user about a failed call: the server's own words when it gave some. */
export function describeError(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.issues.length > 0) return error.issues.map((issue) => issue.message).join(" ");
  return error.message || fallback;
}
