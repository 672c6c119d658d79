import { createHmac } from "node:crypto";

/**
 * RFC 6238 time-based codes, written here from the RFC rather than taken from Better Auth, so the
 * tests check what an authenticator app would compute from the otpauth:// URI the user scans.
 */

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32Decode(text: string): Buffer {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const character of text.replace(/=+$/, "").toUpperCase()) {
    const index = BASE32.indexOf(character);
    if (index < 0) throw new Error(`not base32: ${character}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

export interface TotpParameters {
  issuer: string | null;
  label: string;
  secret: Buffer;
  digits: number;
  period: number;
}

export function parseTotpUri(uri: string): TotpParameters {
  const url = new URL(uri);
  if (url.protocol !== "otpauth:" || url.host !== "totp") throw new Error(`not a TOTP URI: ${uri}`);
  return {
    issuer: url.searchParams.get("issuer"),
    label: decodeURIComponent(url.pathname.slice(1)),
    secret: base32Decode(url.searchParams.get("secret") ?? ""),
    digits: Number(url.searchParams.get("digits") ?? 6),
    period: Number(url.searchParams.get("period") ?? 30),
  };
}

/** The code for the time step `steps` periods away from now (0: the current one). */
export function totpCode(uri: string, steps = 0): string {
  const { secret, digits, period } = parseTotpUri(uri);
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 1000 / period) + steps));
  const mac = createHmac("sha1", secret).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const number = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(number % 10 ** digits).padStart(digits, "0");
}

/** A code no authenticator would show now: none of the steps Better Auth accepts (now, one before, one after). */
export function wrongTotpCode(uri: string): string {
  const accepted = new Set([-1, 0, 1].map((steps) => totpCode(uri, steps)));
  for (let candidate = 0; ; candidate += 1) {
    const code = String(candidate).padStart(6, "0");
    if (!accepted.has(code)) return code;
  }
}
