import { API_BASE } from "#web/lib/api";
import type { SentAnswer, Transport } from "./outbox";
import type { WriteRequest } from "./outbox-store";

/** How long the server asked to wait (Retry-After, in seconds or as a date), in ms. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Sends a write to the API with the session's cookie, as the typed client does; `fetchImpl` and
 * `base` are for a page served elsewhere (the bench's app on a port). Throws when the server
 * could not be reached.
 */
export function fetchTransport(fetchImpl: typeof fetch = fetch, base = API_BASE, headers: HeadersInit = {}): Transport {
  return async (request: WriteRequest): Promise<SentAnswer> => {
    const response = await fetchImpl(base + request.path, {
      method: request.method,
      headers: { ...headers, accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify(request.body),
      credentials: "same-origin",
    });
    const body: unknown = await response.json().catch(() => null);
    return { status: response.status, body, retryAfterMs: retryAfterMs(response.headers.get("retry-after")) };
  };
}
