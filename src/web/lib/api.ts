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
    throw new ApiError(0, "NETWORK", "We could not reach the server. Check your connection and try again.");
  }
  const payload: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (payload as { error?: { code?: string; message?: string; issues?: ApiIssue[] } } | null)?.error;
    throw new ApiError(response.status, error?.code ?? "ERROR", error?.message ?? "", error?.issues);
  }
  return payload as T;
}

/** What to tell the user about a failed call: the server's own words when it gave some. */
export function describeError(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  if (error.issues.length > 0) return error.issues.map((issue) => issue.message).join(" ");
  return error.message || fallback;
}
