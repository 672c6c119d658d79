import { vi } from "vitest";
import { publishedClipPath } from "#course/studio";
import type { PublishedClips } from "#server/modules/studio/studio.contract";
import { API_BASE } from "#web/lib/api";

/** The path the page reads the published clips from (studio.contract.ts). */
export const PUBLISHED_CLIPS_PATH = `${API_BASE}/studio/published`;

/** Two voices of the studio, as GET /api/studio/published names them. */
export const AINA = { userId: "voice-aina", creditedName: "Aina", accent: "kuala-lumpur" } as const;
export const FARID = { userId: "voice-farid", creditedName: "Farid", accent: "johor" } as const;

/**
 * The published clips answer: each course audio path (courseAudioPath) voiced by the voice given,
 * its clip's URL named after the path so a test can tell which clip played.
 */
export function publishedClips(
  voiced: ReadonlyArray<[path: string, voice: typeof AINA | typeof FARID]>,
): PublishedClips {
  const clips: PublishedClips["clips"] = {};
  const voices: PublishedClips["voices"] = {};
  for (const [path, voice] of voiced) {
    clips[path] = { url: publishedClipPath(`take-${path.split("/").slice(-3).join("-")}`), voice: voice.userId };
    voices[voice.userId] = { creditedName: voice.creditedName, accent: voice.accent };
  }
  return { clips, voices };
}

/**
 * From now on in this test, GET /api/studio/published answers `published` (with an ETag, as the
 * server does); every other request goes where it went before (the app in process, or the test's
 * own stub). The studio's published clips, as a page reads them.
 */
export function answerPublishedClips(published: PublishedClips) {
  const before = globalThis.fetch;
  const seen = { reads: 0 };
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), "http://localhost");
    if (url.pathname !== PUBLISHED_CLIPS_PATH) return before(input, init);
    seen.reads++;
    return Response.json(published, { headers: { etag: '"published-1"', "cache-control": "no-cache" } });
  });
  /** How many times the page read the published clips since. */
  return seen;
}
