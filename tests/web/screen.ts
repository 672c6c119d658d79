import { renderHook, screen, waitFor } from "@testing-library/react";
import { expect, vi } from "vitest";
import { dismissToast, useCurrentToast } from "#web/lib/toast";

/**
 * Waits until the page shows the viewer's own state: course pages first show a placeholder or a
 * visitor's view, marked aria-busy, while the session and the progress load.
 */
export async function untilSettled() {
  await waitFor(() => expect(screen.getByRole("main").querySelector("[aria-busy='true']")).toBeNull());
}

/** The toast store outlives a test's render: close the toast on screen so the next test starts clean. */
export function dismissCurrentToast() {
  const { result, unmount } = renderHook(() => useCurrentToast());
  if (result.current) dismissToast(result.current.id);
  unmount();
}

/**
 * jsdom plays no media: every `new Audio()` becomes a real <audio> element whose play() resolves at
 * once. `clips` lists them in creation order; a test ends one with `end(clip)`.
 */
export function stubAudio() {
  const clips: HTMLAudioElement[] = [];
  vi.spyOn(HTMLMediaElement.prototype, "play").mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, "pause").mockImplementation(() => {});
  vi.stubGlobal("Audio", function FakeAudio(src?: string) {
    const clip = document.createElement("audio");
    if (src) clip.src = src;
    clips.push(clip);
    return clip;
  });
  return { clips, end: (clip: HTMLAudioElement) => clip.dispatchEvent(new Event("ended")) };
}
