import { describe, expect, it } from "vitest";
import { contactClientKey, rateLimitSubject } from "./client-key";

describe("rateLimitSubject", () => {
  it("keeps an IPv4 address, also when it arrives IPv4-mapped", () => {
    expect(rateLimitSubject("203.0.113.7")).toBe("203.0.113.7");
    expect(rateLimitSubject("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("puts every address of one IPv6 /64 network together", () => {
    const subject = rateLimitSubject("2001:db8:a:b::1");
    expect(subject).toBe("2001:db8:a:b::/64");
    expect(rateLimitSubject("2001:0db8:000a:000b:ffff:1:2:3")).toBe(subject);
    expect(rateLimitSubject("2001:db8:a:b:0:0:0:1%eth0")).toBe(subject);
    expect(rateLimitSubject("2001:db8:a:c::1")).not.toBe(subject);
    expect(rateLimitSubject("::1")).toBe("0:0:0:0::/64");
    expect(rateLimitSubject("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
  });

  it("passes anything else through unchanged", () => {
    expect(rateLimitSubject("unknown")).toBe("unknown");
  });
});

describe("contactClientKey", () => {
  it("is a keyed hash: stable for one secret, different for another, never the address itself", () => {
    const key = contactClientKey("s".repeat(32), "203.0.113.7");
    expect(key).toBe(contactClientKey("s".repeat(32), "::ffff:203.0.113.7"));
    expect(key).not.toBe(contactClientKey("t".repeat(32), "203.0.113.7"));
    expect(key).not.toBe(contactClientKey("s".repeat(32), "203.0.113.8"));
    expect(key).not.toContain("203.0.113");
    expect(key).toMatch(/^[\w-]{43}$/);
  });
});
