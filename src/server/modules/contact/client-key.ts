import { createHmac } from "node:crypto";
import { isIPv6 } from "node:net";

/**
 * Who counts as one client for the contact form's rate limit: an IPv4 address, or the /64 network
 * of an IPv6 address (a home or phone is given a whole /64 and may use any address in it, so keying
 * on the full address would let it dodge the limit). An IPv4-mapped address counts as the IPv4 one.
 */
export function rateLimitSubject(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  return `${ipv6Groups(address).slice(0, 4).join(":")}::/64`;
}

/**
 * The rate-limit key stored with each message: an HMAC of the client, so the database never holds
 * a visitor's address, yet every app instance sharing the secret computes the same key.
 */
export function contactClientKey(secret: string, address: string): string {
  return createHmac("sha256", secret)
    .update(`contact-form:${rateLimitSubject(address)}`)
    .digest("base64url");
}

/** The eight groups of an IPv6 address, "::" expanded, without leading zeros. */
function ipv6Groups(address: string): string[] {
  let text = address.split("%")[0]!;
  const ipv4Tail = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (ipv4Tail) {
    const [a, b, c, d] = ipv4Tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, ipv4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].map((group) => Number.parseInt(group, 16).toString(16));
}
