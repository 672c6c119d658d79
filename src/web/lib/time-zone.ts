/**
 * The device's time zone (an IANA name), or undefined when the browser does not say. The review
 * counts "today" where the device is, and Settings offers it as the account's zone.
 */
export function deviceTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
