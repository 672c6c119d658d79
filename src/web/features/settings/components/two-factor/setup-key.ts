/**
 * The secret an otpauth:// URI carries, for people who type it into their app instead of scanning
 * the QR code; null when the URI has none.
 */
export function setupKeyOf(totpURI: string): string | null {
  try {
    return new URL(totpURI).searchParams.get("secret");
  } catch {
    return null;
  }
}

/** "JBSWY3DPEHPK3PXP" as "JBSW Y3DP EHPK 3PXP": easier to copy by eye; apps ignore the spaces. */
export function inGroupsOfFour(key: string): string {
  return key.match(/.{1,4}/g)?.join(" ") ?? "";
}
