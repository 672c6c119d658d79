import { useCallback, useEffect, useSyncExternalStore } from "react";
import type { PublishedClips } from "#server/modules/studio/studio.contract";
import { apiClient, call } from "#web/lib/api";
import { mediaUrl } from "#web/lib/media";

/**
 * The native clips published in the voice studio (docs/decisions/078-voice-studio.md), by the course
 * audio path each stands in for. A line plays its published clip wherever it is heard and the espeak
 * clip otherwise; unpublishing a clip takes it out of the next answer, and the line is espeak again.
 *
 * Read once per page that plays course audio (usePublishedClipsRefresh), again on a later page once
 * the last read is a minute old: the answer is small and revalidated with its ETag, so a read that
 * finds nothing new costs a 304. Pages are prerendered with no clips known (the build reads no API)
 * and hydrate that way (the server snapshot), then the native URLs take over.
 */

const NONE: PublishedClips = { clips: {}, voices: {} };
/** How old the last read may be before a page that plays course audio reads the clips again. */
export const PUBLISHED_CLIPS_MAX_AGE_MS = 60_000;

let published = NONE;
let readAt = Number.NEGATIVE_INFINITY;
let reading: Promise<void> | null = null;
const listeners = new Set<() => void>();

/**
 * Reads the published clips now (one read at a time). A failed read keeps what was known: a line
 * without a clip known plays espeak, which is always there.
 */
export function readPublishedClips(): Promise<void> {
  reading ??= (async () => {
    try {
      published = await call(apiClient.studio.published.$get());
      readAt = Date.now();
      for (const listener of listeners) listener();
    } catch {
      // Offline, or the server away or refusing: the lines keep what they play.
    } finally {
      reading = null;
    }
  })();
  return reading;
}

/** Reads the published clips when this page plays course audio and the last read is a minute old or none. */
export function usePublishedClipsRefresh() {
  useEffect(() => {
    if (Date.now() - readAt >= PUBLISHED_CLIPS_MAX_AGE_MS) void readPublishedClips();
  }, []);
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
