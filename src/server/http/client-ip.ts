import type { Context } from "hono";

/** The header our own code sets for Better Auth; any value a client sends under this name is replaced. */
export const CLIENT_IP_HEADER = "x-jalan-client-ip";

/**
 * The address of the peer that opened the connection. X-Forwarded-For is not trusted: without a
 * proxy we configured, anyone can write it, and a rate limit keyed on it could be dodged.
 */
export function clientIp(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? "unknown";
}

export function withClientIp(c: Context): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.set(CLIENT_IP_HEADER, clientIp(c));
  return new Request(c.req.raw, { headers });
}
