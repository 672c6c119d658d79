/** First match wins: Edge, Opera and Samsung Internet also say "Chrome", and Chrome also says "Safari". */
const BROWSERS: readonly [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, "Edge"],
  [/OPR\/|Opera/, "Opera"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/Chrome\/|CriOS\/|Chromium\//, "Chrome"],
  [/Version\/[\d.]+.*Safari\//, "Safari"],
];

/** iPhones and iPads also say "Mac OS X", Android also says "Linux". */
const SYSTEMS: readonly [RegExp, string][] = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/Windows/, "Windows"],
  [/CrOS/, "ChromeOS"],
  [/Macintosh|Mac OS X/, "Mac"],
  [/Linux/, "Linux"],
];

function firstMatch(userAgent: string, patterns: readonly [RegExp, string][]): string | null {
  return patterns.find(([pattern]) => pattern.test(userAgent))?.[1] ?? null;
}

/**
 * A person's name for the device behind a session ("Chrome on Linux", "Safari on iPhone"), read
 * roughly from its user agent: enough to recognise one's own devices, not to identify them.
 */
export function deviceName(userAgent: string | null | undefined): string {
  const browser = userAgent ? firstMatch(userAgent, BROWSERS) : null;
  const system = userAgent ? firstMatch(userAgent, SYSTEMS) : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}
