import { useCallback, useEffect, useRef, useState } from "react";
import { releasePlayback, takePlayback } from "#web/lib/one-sound";
import { espeakInsteadOf } from "#web/lib/published-clips";

/**
 * One audio clip at a time across a page (spec section 4): playing a clip stops the one playing,
 * here or in any other player on the page (`lib/one-sound`), pressing the same clip again stops it,
 * and the playing indicator clears when the clip ends or fails (a failure is logged), so any clip
 * can be played again. `speed` (the story player's choice, practice's 0.75x) is set on the playing
 * clip, whichever it is (a published native clip or espeak), with its pitch kept, also when it
 * changes mid-clip; a test's `?playbackRate=` wins over it, so end-to-end runs still hear clips to
 * their end quickly.
 */
export function useSingleAudio(speed = 1) {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState<string | null>(null);
  const rate = useCallback(() => (playbackRate() === 1 ? speed : playbackRate()), [speed]);

  const stop = useCallback(function stop() {
    const audio = audioRef.current;
    audioRef.current = null;
    if (audio) {
      audio.onended = null;
      audio.onerror = null;
      audio.pause();
    }
    releasePlayback(stop);
    setPlaying(null);
  }, []);

  const toggle = useCallback(
    (src: string, onEnded?: () => void) => {
      const wasPlaying = audioRef.current?.dataset.src === src;
      stop();
      if (wasPlaying) return;
      const audio = new Audio(src);
      audio.dataset.src = src;
      audio.playbackRate = rate();
      // Slowed, a voice keeps its pitch: a native speaker at 0.75x still sounds like themself.
      audio.preservesPitch = true;
      takePlayback(stop);
      audioRef.current = audio;
      setPlaying(src);
      const finish = () => {
        if (audioRef.current !== audio) return;
        audioRef.current = null;
        releasePlayback(stop);
        setPlaying(null);
      };
      audio.onended = () => {
        finish();
        onEnded?.();
      };
      // A native clip taken down since the page read the list fails: its line plays espeak instead,
      // once. A failure of the attempt before (its play() rejected as the source changed) is no news.
      let attempt = 0;
      const start = () => {
        const mine = ++attempt;
        audio.play().catch((error: unknown) => {
          if (mine === attempt) failed(error);
        });
      };
      const failed = (error?: unknown) => {
        if (audioRef.current !== audio) return;
        const espeak = attempt === 1 ? espeakInsteadOf(src) : null;
        if (espeak) {
          audio.src = espeak;
          // A new source starts at the default rate: the chosen speed is set again.
          audio.playbackRate = rate();
          start();
          return;
        }
        console.error("Could not play audio", src, ...(error === undefined ? [] : [error]));
        finish();
      };
      audio.onerror = () => failed();
      start();
    },
    [stop, rate],
  );

  useEffect(() => {
    if (audioRef.current) audioRef.current.playbackRate = rate();
  }, [rate]);
  useEffect(() => stop, [stop]);
  return { playing, toggle, stop };
}

/**
 * Playback speed for course media: 1 unless the page was opened with `?playbackRate=` (clamped to
 * 0.5-16). End-to-end tests use it to hear clips to their real end quickly.
 */
export function playbackRate(): number {
  if (typeof window === "undefined") return 1;
  const value = Number(new URLSearchParams(window.location.search).get("playbackRate"));
  return Number.isFinite(value) && value > 0 ? Math.min(Math.max(value, 0.5), 16) : 1;
}
