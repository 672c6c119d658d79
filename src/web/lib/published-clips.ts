import { useCallback, useEffect, useSyncExternalStore } from "react";
import type { PublishedClips } from "#server/modules/studio/studio.contract";
import { apiClient, call } from "#web/lib/api";
import { mediaUrl } from "#web/lib/media";

/**
 * The native clips published in the voice studio (docs/decisions/078-voice-studio.md), by the course
 * audio path each stands in for. A line plays its published clip wherever it is heard and the espeak
 * clip otherwise; unpublishing a clip takes it out of the next answer, and the line is espeak again.
 *
 * Read again by every page that plays course audio as it opens (usePublishedClipsRefresh), not once
 * per visit: a clip taken down answers 404, so a page must not go on naming it for long. The answer
 * is small and revalidated with its ETag, so a read that finds nothing new is a 304. Pages are
 * prerendered with no clips known (the build reads no API) and hydrate that way (the server
 * snapshot); the native URLs take over once the first read is in, which only delays which file a
 * line's button will play.
 */

const NONE: PublishedClips = { clips: {}, voices: {} };
let published = NONE;
let reading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/**
 * Reads the published clips now (one read at a time). A failed read keeps what was known: a line
 * without a clip known plays espeak, which is always there.
 */
export function readPublishedClips(): Promise<void> {
  reading ??= (async () => {
    try {
      const read = await call(apiClient.studio.published.$get());
      // Most reads find what the last one did (a 304): the pages playing course audio draw again
      // only when a clip was published or taken down.
      if (JSON.stringify(read) === JSON.stringify(published)) return;
      published = read;
      for (const listener of listeners) listener();
    } catch {
      // Offline, or the server away or refusing: the lines keep what they play.
    } finally {
      reading = null;
    }
  })();
  return reading;
}

/**
 * Reads the published clips as a page that plays course audio opens, and again when it shows another
 * `page` (a day's page kept on screen as the learner goes to the next day).
 */
export function usePublishedClipsRefresh(page?: string) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: reading again is the reaction to another page.
  useEffect(() => {
    void readPublishedClips();
  }, [page]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The published clips as known now; none while prerendering and hydrating. */
export function usePublishedClips(): PublishedClips {
  return useSyncExternalStore(
    subscribe,
    () => published,
    () => NONE,
  );
}

/**
 * The espeak file a published clip stood in for, when `url` is one (null otherwise), and a read of
 * the list again: a native clip that fails to play was most likely taken down since the page read
 * it, and the line plays espeak, which is always there.
 */
export function espeakInsteadOf(url: string): string | null {
  const path = Object.keys(published.clips).find((each) => published.clips[each]?.url === url);
  if (!path) return null;
  void readPublishedClips();
  return mediaUrl(path);
}

/** What plays for a course audio path: its published clip's URL as sent (versioned), or the espeak file's. */
export function clipUrl(clips: PublishedClips, path: string): string {
  return clips.clips[path]?.url ?? mediaUrl(path);
}

/**
 * `(path) => url` for the course's clips (courseAudioPath, or a path the server sent), used by every
 * player of course audio instead of mediaUrl; a line's URL changes when its clip is published.
 */
export function useClipUrl(): (path: string) => string {
  const clips = usePublishedClips();
  return useCallback((path: string) => clipUrl(clips, path), [clips]);
}
