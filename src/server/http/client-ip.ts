import { isIP } from "node:net";
import type { Context, MiddlewareHandler } from "hono";

declare module "hono" {
  interface ContextVariableMap {
    /** The client's address as resolveClientIp decided it, once per request. */
    clientIp: string;
  }
}

/** The header our own code sets for Better Auth; any value a client sends under this name is replaced. */
export const CLIENT_IP_HEADER = "x-jalan-client-ip";

/** The address of the peer that opened the connection. */
function socketAddress(c: Context): string {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress ?? "unknown";
}

/**
 * The right-most address of X-Forwarded-For: the one our proxy appended, the peer it saw. Entries
 * to its left were written by whoever connected to the proxy and prove nothing.
 */
function lastForwardedAddress(header: string | undefined): string | null {
  const last = header?.split(",").at(-1)?.trim();
  return last && isIP(last) ? last : null;
}

/**
 * Decides the client's address for the rate limits and the audit log. Without a trusted proxy
 * (TRUST_PROXY off, the default) X-Forwarded-For is ignored: anyone can write it, and a limit keyed
 * on it could be dodged by changing it on every request. With one, the proxy's own entry is used,
 * and the connection's address when the proxy sent none.
 */
export function resolveClientIp(trustProxy: boolean): MiddlewareHandler {
  return async (c, next) => {
    const forwarded = trustProxy ? lastForwardedAddress(c.req.header("x-forwarded-for")) : null;
    c.set("clientIp", forwarded ?? socketAddress(c));
    await next();
  };
}

export function clientIp(c: Context): string {
  return c.get("clientIp") ?? socketAddress(c);
}

/** The request for Better Auth, carrying our decision about the client's address in CLIENT_IP_HEADER. */
export function withClientIp(c: Context): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.set(CLIENT_IP_HEADER, clientIp(c));
  return new Request(c.req.raw, { headers });
}
