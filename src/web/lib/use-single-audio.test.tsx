import { act, fireEvent, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { courseAudioPath } from "#course/course";
import { AINA, answerPublishedClips, publishedClips } from "#tests/web/published-clips";
import { stubAudio } from "#tests/web/screen";
import { mediaUrl } from "./media";
import { readPublishedClips } from "./published-clips";
import { useSingleAudio } from "./use-single-audio";

const paused = () => vi.mocked(HTMLMediaElement.prototype.pause).mock.contexts;

afterEach(() => {
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("one sound at a time on a page", () => {
  it("stops one player's clip when another player on the page starts one", () => {
    const audio = stubAudio();
    const first = renderHook(() => useSingleAudio());
    const second = renderHook(() => useSingleAudio());

    act(() => first.result.current.toggle("/a.mp3"));
    expect(first.result.current.playing).toBe("/a.mp3");
    act(() => second.result.current.toggle("/b.mp3"));
    expect(second.result.current.playing).toBe("/b.mp3");
    expect(first.result.current.playing).toBeNull();
    expect(paused()).toContain(audio.clips[0]);
    expect(paused()).not.toContain(audio.clips[1]);

    // And back: the first player starting again stops the second.
    act(() => first.result.current.toggle("/a.mp3"));
    expect(second.result.current.playing).toBeNull();
    expect(paused()).toContain(audio.clips[1]);
  });

  it("pauses the page's audio and video elements when a clip starts, and stops the clip when one of them plays", () => {
    const audio = stubAudio();
    const recording = document.body.appendChild(document.createElement("audio"));
    const video = document.body.appendChild(document.createElement("video"));
    const player = renderHook(() => useSingleAudio());

    act(() => player.result.current.toggle("/a.mp3"));
    expect(paused()).toEqual(expect.arrayContaining([recording, video]));

    vi.mocked(HTMLMediaElement.prototype.pause).mockClear();
    act(() => {
      fireEvent.play(recording);
    });
    expect(player.result.current.playing).toBeNull();
    expect(paused()).toContain(audio.clips[0]);
    expect(paused()).toContain(video);
    expect(paused()).not.toContain(recording);
  });
});

describe("a native clip that will not play", () => {
  it("plays the line's espeak clip instead, once, at the chosen speed, and reads the published list again", async () => {
    const path = courseAudioPath("chapter-1", "day-1", "line-selamat-pagi");
    const published = publishedClips([[path, AINA]]);
    const seen = answerPublishedClips(published);
    await readPublishedClips();
    const native = published.clips[path]!.url;
    const audio = stubAudio();
    const player = renderHook(() => useSingleAudio(0.75));

    act(() => player.result.current.toggle(native));
    const clip = audio.clips[0]!;
    expect(clip.src).toMatch(new RegExp(`${native}$`));
    // Taken down since the page read the list: the server answers 404, and the element fails.
    act(() => {
      fireEvent.error(clip);
    });
    expect(clip.src).toMatch(new RegExp(`${mediaUrl(path).replace("?", "\\?")}$`));
    expect(clip.playbackRate).toBe(0.75);
    expect(player.result.current.playing).toBe(native);
    expect(seen.reads).toBe(2);
    // espeak failing too ends the playing: no third try.
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    act(() => {
      fireEvent.error(clip);
    });
    expect(player.result.current.playing).toBeNull();
    expect(error).toHaveBeenCalledWith("Could not play audio", native);
  });
});
