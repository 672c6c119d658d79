import type { ClientResponse } from "hono/client";
import { hc } from "hono/client";
import type { ApiRoutes } from "#server/modules/registry";

/** Where the API is served (src/server/modules/registry.ts, API_PREFIX); Better Auth sits under /auth. */
export const API_BASE = "/api";

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
 * and any non-2xx answer throw an ApiError with the server's message, as `api` does.
 */
export async function call<R extends ClientResponse<unknown, number, string>>(
  request: Promise<R>,
): Promise<SuccessBody<R>> {
  let response: R;
  try {
    response = await request;
  } catch {
    throw networkError();
  }
  return (await readAnswer(response)) as SuccessBody<R>;
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

/**
 * The one way the web app calls the API. Plain objects are sent as JSON; FormData goes as multipart
 * (the browser sets the boundary). Any non-2xx answer throws an ApiError with the server's message
 * (empty when the server gave none; describeError supplies the caller's fallback).
 */
export type ApiInit = Omit<RequestInit, "body" | "headers"> & { body?: unknown; headers?: Record<string, string> };

export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  const { body, headers, ...rest } = init;
  const isForm = body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(path, {
      credentials: "same-origin",
      ...rest,
      headers: {
        accept: "application/json",
        ...(body !== undefined && !isForm ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    });
  } catch {
    throw networkError();
  }
  return (await readAnswer(response)) as T;
}

/** What to tell the user about a failed call: the server's own words when it gave some. */
export function describeError(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.issues.length > 0) return error.issues.map((issue) => issue.message).join(" ");
  return error.message || fallback;
}
